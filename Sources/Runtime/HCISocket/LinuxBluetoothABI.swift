import Glibc

/// The Linux Bluetooth socket ABI that the HCI socket backend uses, spelled out from the
/// kernel's uapi (include/net/bluetooth/hci_sock.h, hci.h; BlueZ lib/hci.h has the same).
///
/// Why not the CBluetooth module: importing it into Runtime breaks the whole-module (release)
/// build. Its headers include <sys/socket.h>, clang then owns those declarations in the
/// CBluetooth module, and Runtime files that import only Glibc stop seeing SOCK_STREAM and
/// MSG_NOSIGNAL. These numbers are kernel ABI, stable forever, and checked by the VM test.
/// A side effect: the binary does not link libbluetooth.
enum LinuxBluetoothABI {
    static let btprotoHCI: Int32 = 1
    static let btprotoL2CAP: Int32 = 0

    /// `sockaddr_hci.hci_channel` values.
    static let channelRaw: UInt16 = 0
    static let channelUser: UInt16 = 1
    static let channelMonitor: UInt16 = 2
    static let channelControl: UInt16 = 3
    /// `HCI_DEV_NONE`: a socket bound to no adapter (the management channel).
    static let deviceNone: UInt16 = 0xFFFF

    /// ioctl requests: _IOW('H', 201/202, int) and _IOR('H', 210/211, int).
    static let hciDevUp: UInt = 0x4004_48C9
    static let hciDevDown: UInt = 0x4004_48CA
    static let hciGetDevList: UInt = 0x8004_48D2
    static let hciGetDevInfo: UInt = 0x8004_48D3
    /// _IOR('H', 212, int): the open connections of one adapter.
    static let hciGetConnList: UInt = 0x8004_48D4

    /// HCI_UP: bit 0 of the legacy device flags.
    static let flagUp: UInt32 = 1 << 0

    /// `struct hci_dev_info` is 92 bytes; offsets of the fields read here.
    enum DevInfo {
        static let size = 92
        static let devID = 0
        static let name = 2
        static let nameLength = 8
        static let bdaddr = 10
        static let flags = 16
        static let type = 20
    }

    /// `struct hci_dev_list_req`: u16 dev_num (+2 padding), then 8-byte `hci_dev_req`
    /// entries (u16 dev_id, 2 padding, u32 dev_opt).
    enum DevList {
        static let headerSize = 4
        static let entrySize = 8
    }

    /// `struct hci_conn_list_req`: u16 dev_id, u16 conn_num, then 16-byte `hci_conn_info`
    /// entries (u16 handle, bdaddr_t bdaddr, u8 type, u8 out, u16 state, u32 link_mode).
    enum ConnList {
        static let headerSize = 4
        static let entrySize = 16
        static let handle = 0
        static let bdaddr = 2
        static let type = 8
        /// `type` of an LE link (LE_LINK).
        static let leLink: UInt8 = 0x80
    }

    /// ERFKILL (Linux errno 132).
    static let errnoRFKill: Int32 = 132

    /// `struct sockaddr_hci` (6 bytes: family, device, channel; host order).
    static func sockaddrHCI(device: UInt16, channel: UInt16) -> [UInt8] {
        let family = UInt16(AF_BLUETOOTH)
        return [UInt8(family & 0xFF), UInt8(family >> 8), UInt8(device & 0xFF), UInt8(device >> 8),
                UInt8(channel & 0xFF), UInt8(channel >> 8)]
    }

    /// `bind(2)` with a socket address given as bytes.
    static func bind(_ fd: Int32, address: [UInt8]) -> Int32 {
        address.withUnsafeBytes { raw in
            Glibc.bind(fd, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
    }

    /// A raw Bluetooth HCI socket (close-on-exec, optionally non-blocking); -1 with errno.
    static func hciSocket(nonBlocking: Bool = false) -> Int32 {
        var type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        return socket(AF_BLUETOOTH, type, btprotoHCI)
    }

    /// A non-blocking HCI socket bound to `channel` of `device` (the user, monitor and
    /// management channels all open this way); the descriptor is closed when the bind fails.
    /// - Throws: `HCISocketError` with `.socket` when there is no Bluetooth socket family, else
    ///   with `operation` and the bind's errno.
    static func boundChannel(device: UInt16, channel: UInt16, index: UInt16?,
                             operation: HCISocketError.Operation) throws(HCISocketError) -> Int32 {
        let fd = hciSocket(nonBlocking: true)
        guard fd >= 0 else { throw HCISocketError(index: index, operation: .socket, errno: currentErrno) }
        guard bind(fd, address: sockaddrHCI(device: device, channel: channel)) == 0 else {
            let code = currentErrno
            FileDescriptorFlags.closeIgnoringErrors(fd)
            throw HCISocketError(index: index, operation: operation, errno: code,
                                 present: code == ENODEV ? HCIAdapterDirectory.names() : [])
        }
        return fd
    }
}
