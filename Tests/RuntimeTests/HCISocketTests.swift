import Glibc
import Testing
import Wire
@testable import Runtime

/// The HCI user-channel backend where it can be checked without a Bluetooth kernel: the error
/// texts, the management reply parser, and (on a kernel without AF_BLUETOOTH, like CI's) the
/// real failure path. The VM test (scripts/vm-test) covers the paths that need a real kernel.
@Suite struct HCISocketTests {
    /// Whether this kernel lacks AF_BLUETOOTH (true on the build machines).
    static let kernelLacksBluetooth: Bool = {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 1)
        if fd >= 0 { close(fd); return false }
        return errno == EAFNOSUPPORT
    }()

    @Test(.enabled(if: kernelLacksBluetooth, "this kernel has Bluetooth; the VM test covers the other paths"))
    func openingWithoutKernelBluetoothNamesTheModule() {
        do {
            _ = try AdapterSpec.hciSocket(index: 0).openTransport()
            Issue.record("hci0 opened on a kernel without Bluetooth")
        } catch {
            guard case .hciSocket(let cause) = error else { Issue.record("\(error)"); return }
            #expect(cause.isNoKernelSupport)
            #expect(cause.index == 0)
            #expect(cause.description.hasPrefix("hci0: no Bluetooth support in this kernel"), "\(cause)")
            #expect(cause.description.contains("EAFNOSUPPORT"))
        }
    }

    @Test(.enabled(if: kernelLacksBluetooth, "this kernel has Bluetooth; the VM test covers the other paths"))
    func listingWithoutKernelBluetoothThrowsNoKernelSupport() {
        do {
            _ = try HCIAdapters.list()
            Issue.record("listed adapters on a kernel without Bluetooth")
        } catch {
            #expect(error.isNoKernelSupport)
            #expect(error.description.hasPrefix("no Bluetooth support in this kernel"))
        }
    }

    /// Each errno the kernel gives for a user channel maps to its cause (the CLI adds the fix:
    /// DissectorTests' AdapterAdviceTests).
    static let errnoCases: [(Int32, [String])] = [
        (ENODEV, ["no such adapter", "ENODEV", "hci0, hci1"]),
        (EBUSY, ["busy", "EBUSY", "another program holds its user channel"]),
        (EUSERS, ["busy", "EUSERS"]),
        (EPERM, ["permission denied", "EPERM", "bind the user channel"]),
        (EACCES, ["permission denied", "EACCES"]),
        (132, ["rfkill", "ERFKILL"]),
        (EAFNOSUPPORT, ["no Bluetooth support in this kernel"]),
        (EINVAL, ["could not bind the user channel", "EINVAL"]),
    ]

    @Test(arguments: errnoCases)
    func errorNamesTheCause(code: Int32, phrases: [String]) {
        let error = HCISocketError(index: 3, operation: .bind, errno: code, present: ["hci0", "hci1"])
        for phrase in phrases {
            #expect(error.description.contains(phrase), "\(error.description) lacks '\(phrase)'")
        }
        // Advice is the CLI's: none of it here.
        #expect(!error.description.contains("setcap") && !error.description.contains("modprobe")
                && !error.description.contains("systemctl"))
        #expect(error.description.hasPrefix("hci3: "))
    }

    @Test func noSuchAdapterWithNonePresentSaysSo() {
        let error = HCISocketError(index: 0, operation: .deviceInfo, errno: ENODEV, present: [])
        #expect(error.description.contains("adapters in /sys/class/bluetooth: none"))
    }

    @Test func adapterDirectoryKeepsAdaptersOnlySortedByIndex() throws {
        var template = Array("/tmp/rtstack-sysfs-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { Issue.record("mkdtemp"); return }
        let dir = String(cString: made)
        defer {
            for name in ["hci10", "hci2", "hci2:64", "rfkill0"] { rmdir(dir + "/" + name) }
            rmdir(dir)
        }
        for name in ["hci10", "hci2", "hci2:64", "rfkill0"] { mkdir(dir + "/" + name, 0o700) }
        #expect(HCIAdapterDirectory.names(at: dir) == ["hci2", "hci10"])
        #expect(HCIAdapterDirectory.names(at: dir + "/absent").isEmpty)
    }

    // BlueZ doc/mgmt-api.txt: event header (Event_Code, Controller_Index, Parameter_Length),
    // then Command Complete's Command_Opcode, Status and the return parameters
    // (Num_Controllers, Controller_Index[i]).
    @Test func managementIndexListReplyParses() {
        let reply: [UInt8] = [0x01, 0x00, 0xFF, 0xFF, 0x09, 0x00, 0x03, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x02, 0x00]
        #expect(ManagementIndexList.parseReply(reply[...], opcode: 0x0003) == .list([1, 2]))
        #expect(ManagementIndexList.parseReply(reply[...], opcode: 0x0036) == .unrelated)
    }

    @Test func managementReplyFailuresAndNoise() {
        // Command Status (0x0002) for our opcode: the request failed.
        #expect(ManagementIndexList.parseReply([0x02, 0x00, 0xFF, 0xFF, 0x03, 0x00, 0x03, 0x00, 0x0C][...], opcode: 0x0003) == .failed)
        // Command Complete with a non-zero status.
        #expect(ManagementIndexList.parseReply([0x01, 0x00, 0xFF, 0xFF, 0x03, 0x00, 0x03, 0x00, 0x01][...], opcode: 0x0003) == .failed)
        // Index Added (0x0004) for hci1 is not our reply.
        #expect(ManagementIndexList.parseReply([0x04, 0x00, 0x01, 0x00, 0x00, 0x00][...], opcode: 0x0003) == .unrelated)
        // Count says 3 controllers, two present: refused, not read past the end.
        let short: [UInt8] = [0x01, 0x00, 0xFF, 0xFF, 0x09, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00, 0x01, 0x00, 0x02, 0x00]
        #expect(ManagementIndexList.parseReply(short[...], opcode: 0x0003) == .failed)
        // Truncated header, and a length that overruns the bytes.
        #expect(ManagementIndexList.parseReply([0x01, 0x00, 0xFF][...], opcode: 0x0003) == .unrelated)
        #expect(ManagementIndexList.parseReply([0x01, 0x00, 0xFF, 0xFF, 0x40, 0x00, 0x03, 0x00, 0x00][...], opcode: 0x0003) == .unrelated)
    }

    @Test func adapterInfoNamesItsBus() {
        let info = HCIAdapterInfo(index: 0, name: "hci0", address: .zero, isUp: true, heldByUserChannel: nil, bus: 3)
        #expect(info.busName == "uart")
        #expect(HCIAdapterInfo(index: 0, name: "hci0", address: .zero, isUp: true, heldByUserChannel: nil, bus: 0).busName == "virtual")
    }

    /// `struct hci_dev_info` as the kernel fills it (offsets checked with offsetof against
    /// BlueZ lib/hci.h: name 2, bdaddr 10, flags 16, type 20; 92 bytes).
    @Test func deviceInfoParsesTheKernelLayout() {
        var raw = [UInt8](repeating: 0xEE, count: LinuxBluetoothABI.DevInfo.size)
        raw[0] = 0x01; raw[1] = 0x00                                     // dev_id 1
        for (i, c) in Array("hci1".utf8).enumerated() { raw[2 + i] = c }
        raw[6] = 0                                                       // NUL after "hci1"
        raw[10..<16] = [0x01, 0x00, 0x01, 0x01, 0xAA, 0x00]              // 00:AA:01:01:00:01, wire order
        raw[16..<20] = [0x05, 0x00, 0x00, 0x00]                          // HCI_UP | HCI_RUNNING
        raw[20] = 0x00                                                   // HCI_VIRTUAL
        let info = HCIDeviceInfo(raw: raw)
        #expect(info.name == "hci1")
        #expect(info.address.string == "00:AA:01:01:00:01")
        #expect(info.isUp)
        #expect(info.type == 0)
        raw[16] = 0x04                                                   // HCI_RUNNING only
        #expect(!HCIDeviceInfo(raw: raw).isUp)
    }

    /// `struct sockaddr_hci` { sa_family_t family = AF_BLUETOOTH (31); u16 dev; u16 channel }.
    @Test func userChannelAddressBytes() {
        #expect(LinuxBluetoothABI.sockaddrHCI(device: 2, channel: LinuxBluetoothABI.channelUser) == [31, 0, 2, 0, 1, 0])
        #expect(LinuxBluetoothABI.sockaddrHCI(device: LinuxBluetoothABI.deviceNone, channel: LinuxBluetoothABI.channelControl)
                == [31, 0, 0xFF, 0xFF, 3, 0])
    }

    /// _IOW('H', 201, int) = dir 1 << 30 | size 4 << 16 | 'H' << 8 | 201, and so on.
    @Test func ioctlNumbersFollowTheIOCEncoding() {
        func ioc(_ dir: UInt, _ nr: UInt) -> UInt { dir << 30 | 4 << 16 | 0x48 << 8 | nr }
        #expect(LinuxBluetoothABI.hciDevUp == ioc(1, 201))
        #expect(LinuxBluetoothABI.hciDevDown == ioc(1, 202))
        #expect(LinuxBluetoothABI.hciGetDevList == ioc(2, 210))
        #expect(LinuxBluetoothABI.hciGetDevInfo == ioc(2, 211))
    }
}
