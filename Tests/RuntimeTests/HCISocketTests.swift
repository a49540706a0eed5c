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
            guard case .unavailable(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.hasPrefix("hci0: no Bluetooth support in this kernel"), "\(message)")
            #expect(message.contains("EAFNOSUPPORT"))
            #expect(message.contains("modprobe bluetooth"))
            #expect(message.contains("CONFIG_BT"))
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

    /// Each errno the kernel gives for a user channel maps to its cause and its fix.
    static let errnoCases: [(Int32, [String])] = [
        (ENODEV, ["no such adapter", "ENODEV", "hci0, hci1"]),
        (EBUSY, ["busy", "EBUSY", "systemctl stop bluetooth", "btmgmt --index 3 power off"]),
        (EUSERS, ["busy", "EUSERS"]),
        (EPERM, ["permission denied", "EPERM", "CAP_NET_ADMIN", "CAP_NET_RAW",
                 "setcap cap_net_admin,cap_net_raw+ep $(which rtstack)"]),
        (EACCES, ["permission denied", "EACCES", "setcap"]),
        (132, ["rfkill", "ERFKILL", "rfkill unblock bluetooth"]),
        (EAFNOSUPPORT, ["no Bluetooth support in this kernel", "modprobe bluetooth"]),
        (EINVAL, ["could not bind the user channel", "EINVAL"]),
    ]

    @Test(arguments: errnoCases)
    func errorNamesCauseAndFix(code: Int32, phrases: [String]) {
        let error = HCISocketError(index: 3, operation: .bind, errno: code, present: ["hci0", "hci1"])
        for phrase in phrases {
            #expect(error.description.contains(phrase), "\(error.description) lacks '\(phrase)'")
        }
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
}
