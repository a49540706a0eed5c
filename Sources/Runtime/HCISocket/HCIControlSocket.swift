import CBluetooth
import Glibc
import Wire

/// A plain (unbound) HCI socket: the handle for the device ioctls (HCIGETDEVLIST,
/// HCIGETDEVINFO, HCIDEVUP, HCIDEVDOWN). Opened per request and closed right after, so it
/// never sees traffic.
struct HCIControlSocket: ~Copyable {
    let fd: Int32

    /// Fails with EAFNOSUPPORT on a kernel without Bluetooth.
    init(index: UInt16?) throws(HCISocketError) {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard fd >= 0 else { throw HCISocketError(index: index, operation: .socket, errno: currentErrno) }
        self.fd = fd
    }

    deinit { FileDescriptorFlags.closeIgnoringErrors(fd) }

    /// HCIGETDEVINFO for one adapter.
    func deviceInfo(_ index: UInt16) throws(HCISocketError) -> hci_dev_info {
        var info = hci_dev_info()
        info.dev_id = index
        guard rtstack_hci_get_dev_info(fd, &info) == 0 else {
            let code = currentErrno
            throw HCISocketError(index: index, operation: .deviceInfo, errno: code,
                                 present: code == ENODEV ? HCIAdapterDirectory.names() : [])
        }
        return info
    }

    /// HCIGETDEVLIST: the indexes of every registered adapter, in the kernel's order.
    func deviceIndexes() throws(HCISocketError) -> [UInt16] {
        let capacity = 64
        var ids = [UInt16](repeating: 0, count: capacity)
        var flags = [UInt32](repeating: 0, count: capacity)
        let count = rtstack_hci_get_dev_list(fd, &ids, &flags, Int32(capacity))
        guard count >= 0 else { throw HCISocketError(index: nil, operation: .deviceInfo, errno: currentErrno) }
        return Array(ids.prefix(Int(count)))
    }

    /// HCIDEVDOWN (needs CAP_NET_ADMIN; EBUSY while a user channel holds the adapter).
    func takeDown(_ index: UInt16) throws(HCISocketError) {
        guard rtstack_hci_ioctl_index(fd, rtstack_ioctl_HCIDEVDOWN(), Int32(index)) == 0 else {
            throw HCISocketError(index: index, operation: .takeDown, errno: currentErrno)
        }
    }

    /// HCIDEVUP; EALREADY (someone else, e.g. bluetoothd, was quicker) counts as success.
    func bringUp(_ index: UInt16) throws(HCISocketError) {
        guard rtstack_hci_ioctl_index(fd, rtstack_ioctl_HCIDEVUP(), Int32(index)) == 0 else {
            let code = currentErrno
            if code == EALREADY { return }
            throw HCISocketError(index: index, operation: .bringUp, errno: code)
        }
    }
}

extension hci_dev_info {
    /// HCI_UP in the legacy device flags (bit 0 of `flags`; the kernel clears it while the
    /// adapter is only powered for its auto-off grace period).
    var isUp: Bool { flags & (1 << UInt32(HCI_UP)) != 0 }

    /// The controller's public address (BD_ADDR), zero when it has none.
    var address: BDAddress {
        withUnsafeBytes(of: bdaddr.b) { raw in BDAddress(littleEndian: Array(raw)[...]) ?? BDAddress.zero }
    }

    /// The kernel's name for the adapter ("hci0").
    var deviceName: String {
        withUnsafeBytes(of: name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
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
