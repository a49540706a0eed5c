import Glibc
import Wire

/// A plain (unbound) HCI socket: the handle for the device ioctls (HCIGETDEVLIST,
/// HCIGETDEVINFO, HCIDEVUP, HCIDEVDOWN). Opened per request and closed right after, so it
/// never sees traffic.
struct HCIControlSocket: ~Copyable {
    let fd: Int32

    /// Fails with EAFNOSUPPORT on a kernel without Bluetooth.
    init(index: UInt16?) throws(HCISocketError) {
        let fd = LinuxBluetoothABI.hciSocket()
        guard fd >= 0 else { throw HCISocketError(index: index, operation: .socket, errno: currentErrno) }
        self.fd = fd
    }

    deinit { FileDescriptorFlags.closeIgnoringErrors(fd) }

    /// HCIGETDEVINFO for one adapter.
    func deviceInfo(_ index: UInt16) throws(HCISocketError) -> HCIDeviceInfo {
        typealias L = LinuxBluetoothABI.DevInfo
        var raw = [UInt8](repeating: 0, count: L.size)
        raw[L.devID] = UInt8(index & 0xFF)
        raw[L.devID + 1] = UInt8(index >> 8)
        let rc = raw.withUnsafeMutableBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return ioctl(fd, LinuxBluetoothABI.hciGetDevInfo, base)
        }
        guard rc == 0 else {
            let code = currentErrno
            throw HCISocketError(index: index, operation: .deviceInfo, errno: code,
                                 present: code == ENODEV ? HCIAdapterDirectory.names() : [])
        }
        return HCIDeviceInfo(raw: raw)
    }

    /// HCIGETDEVLIST: the indexes of every registered adapter, in the kernel's order.
    func deviceIndexes() throws(HCISocketError) -> [UInt16] {
        typealias L = LinuxBluetoothABI.DevList
        let capacity = 64
        var raw = [UInt8](repeating: 0, count: L.headerSize + capacity * L.entrySize)
        raw[0] = UInt8(capacity)
        let rc = raw.withUnsafeMutableBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return ioctl(fd, LinuxBluetoothABI.hciGetDevList, base)
        }
        guard rc == 0 else { throw HCISocketError(index: nil, operation: .deviceInfo, errno: currentErrno) }
        let count = min(Int(UInt16(raw[0]) | UInt16(raw[1]) << 8), capacity)
        return (0..<count).map { i in
            let o = L.headerSize + i * L.entrySize
            return UInt16(raw[o]) | UInt16(raw[o + 1]) << 8
        }
    }

    /// HCIDEVDOWN (needs CAP_NET_ADMIN; EBUSY while a user channel holds the adapter).
    func takeDown(_ index: UInt16) throws(HCISocketError) {
        guard ioctl(fd, LinuxBluetoothABI.hciDevDown, CInt(index)) == 0 else {
            throw HCISocketError(index: index, operation: .takeDown, errno: currentErrno)
        }
    }

    /// HCIDEVUP; EALREADY (someone else, e.g. bluetoothd, was quicker) counts as success.
    func bringUp(_ index: UInt16) throws(HCISocketError) {
        guard ioctl(fd, LinuxBluetoothABI.hciDevUp, CInt(index)) == 0 else {
            let code = currentErrno
            if code == EALREADY { return }
            throw HCISocketError(index: index, operation: .bringUp, errno: code)
        }
    }
}

/// The fields of `struct hci_dev_info` that rtstack reads.
struct HCIDeviceInfo {
    /// The kernel's name for the adapter ("hci0").
    let name: String
    /// The controller's public address (BD_ADDR), zero when it has none.
    let address: BDAddress
    /// Legacy device flags (HCI_UP …). The kernel clears HCI_UP while the adapter is only
    /// powered for its auto-off grace period.
    let flags: UInt32
    /// Bus (low nibble) and controller type.
    let type: UInt8

    init(raw: [UInt8]) {
        typealias L = LinuxBluetoothABI.DevInfo
        let nameBytes = raw[L.name..<(L.name + L.nameLength)].prefix { $0 != 0 }
        name = String(decoding: nameBytes, as: UTF8.self)
        address = BDAddress(littleEndian: raw[L.bdaddr..<(L.bdaddr + 6)]) ?? .zero
        flags = UInt32(raw[L.flags]) | UInt32(raw[L.flags + 1]) << 8 | UInt32(raw[L.flags + 2]) << 16
            | UInt32(raw[L.flags + 3]) << 24
        type = raw[L.type]
    }

    var isUp: Bool { flags & LinuxBluetoothABI.flagUp != 0 }
}

/// /sys/class/bluetooth: the adapters the kernel registered, by name.
enum HCIAdapterDirectory {
    static let path = "/sys/class/bluetooth"

    /// `hci0`, `hci1`, … sorted by index; empty when the directory is absent (no Bluetooth).
    static func names(at directory: String = path) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var indexes: [Int] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            // Connection entries look like "hci0:64"; keep the adapters only.
            guard name.hasPrefix("hci"), let n = Int(name.dropFirst(3)) else { continue }
            indexes.append(n)
        }
        return indexes.sorted().map { "hci\($0)" }
    }
}
