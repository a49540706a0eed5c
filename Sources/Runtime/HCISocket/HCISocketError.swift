import Glibc

/// Why an HCI socket adapter (`hciN`) could not be opened or used, with the fix in the message.
///
/// The kernel reports every problem with an errno; a user on a board needs to know what that
/// errno means for Bluetooth (EBUSY is "bluetoothd has it", EPERM is "missing capabilities"),
/// so `description` names the cause and the command that fixes it.
public struct HCISocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    public enum Operation: String, Sendable, Hashable {
        /// `socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI)`.
        case socket
        /// `ioctl(HCIGETDEVINFO)` / `ioctl(HCIGETDEVLIST)`.
        case deviceInfo = "read adapter information"
        /// `ioctl(HCIDEVDOWN)` before taking the user channel.
        case takeDown = "bring the adapter down"
        /// `bind` to `HCI_CHANNEL_USER` (or another channel).
        case bind = "bind the user channel"
        /// `ioctl(HCIDEVUP)` after closing.
        case bringUp = "bring the adapter back up"
        /// A management-channel request.
        case management = "query the management interface"
        /// `bind` to `HCI_CHANNEL_MONITOR` (what btmon reads), or reading from it.
        case monitor = "open the monitor channel"
    }

    /// The adapter index (`hciN`), nil for requests about no adapter in particular.
    public let index: UInt16?
    public let operation: Operation
    public let errno: Int32
    /// Adapters present in /sys/class/bluetooth when the error happened (for ENODEV).
    public let present: [String]

    public init(index: UInt16?, operation: Operation, errno: Int32, present: [String] = []) {
        self.index = index
        self.operation = operation
        self.errno = errno
        self.present = present
    }

    /// ERFKILL, for messages of other backends.
    public static var rfkillErrno: Int32 { LinuxBluetoothABI.errnoRFKill }

    /// The kernel has no AF_BLUETOOTH (no `bluetooth` module, or CONFIG_BT off).
    public var isNoKernelSupport: Bool { errno == EAFNOSUPPORT }

    var subject: String { index.map { "hci\($0)" } ?? "Bluetooth" }
    var prefix: String { index.map { "hci\($0): " } ?? "" }

    /// Cause first, then the fix.
    public var description: String {
        let code = Self.errnoText(errno)
        switch errno {
        case EAFNOSUPPORT:
            return prefix + "no Bluetooth support in this kernel (\(code)). "
                + "Load it with 'modprobe bluetooth' plus the controller's driver (btusb, hci_uart); "
                + "a kernel built without it needs CONFIG_BT and a driver (CONFIG_BT_HCIBTUSB, CONFIG_BT_HCIUART). "
                + "Without kernel Bluetooth use a serial controller (--adapter /dev/ttyACM0) or tcp:HOST:PORT"
        case ENODEV:
            let list = present.isEmpty
                ? "none (is the controller plugged in and its driver loaded? UART controllers need btattach)"
                : present.joined(separator: ", ")
            return "\(subject): no such adapter (\(code)); adapters in /sys/class/bluetooth: \(list)"
        case EBUSY, EUSERS, EALREADY:
            let n = index.map(String.init) ?? "N"
            return "\(subject): the adapter is busy (\(code)): another program holds its user channel "
                + "(another rtstack, a Bumble or btproxy process), or bluetoothd is using it. "
                + "Stop that program, or stop bluetoothd ('systemctl stop bluetooth'), or power the adapter "
                + "off for BlueZ ('btmgmt --index \(n) power off')"
        case EPERM where operation == .monitor, EACCES where operation == .monitor:
            return "permission denied (\(code)) while trying to \(operation.rawValue): the HCI monitor channel "
                + "needs CAP_NET_RAW. Run as root, or grant it once: sudo setcap cap_net_raw+ep $(which rtstack) "
                + "(cap_net_admin,cap_net_raw+ep also lets --adapter hciN take a user channel)"
        case EPERM, EACCES:
            return "\(subject): permission denied (\(code)) while trying to \(operation.rawValue): the HCI user channel "
                + "needs CAP_NET_ADMIN and CAP_NET_RAW. Run as root, or grant them once: "
                + "sudo setcap cap_net_admin,cap_net_raw+ep $(which rtstack)"
        case LinuxBluetoothABI.errnoRFKill:
            return "\(subject): the adapter is blocked by rfkill (\(code)); unblock it with 'rfkill unblock bluetooth'"
        default:
            return "\(subject): could not \(operation.rawValue): \(code)"
        }
    }

    /// "Device or resource busy (EBUSY)": the C library's text and the symbolic name.
    static func errnoText(_ code: Int32) -> String {
        let message = String(cString: strerror(code))
        return "\(message) (\(errnoSymbol(code)))"
    }

    static func errnoSymbol(_ code: Int32) -> String {
        switch code {
        case EAFNOSUPPORT: return "EAFNOSUPPORT"
        case ENODEV: return "ENODEV"
        case EBUSY: return "EBUSY"
        case EUSERS: return "EUSERS"
        case EALREADY: return "EALREADY"
        case EPERM: return "EPERM"
        case EACCES: return "EACCES"
        case EINVAL: return "EINVAL"
        case EPROTONOSUPPORT: return "EPROTONOSUPPORT"
        case ENETDOWN: return "ENETDOWN"
        case EOPNOTSUPP: return "EOPNOTSUPP"
        case ETIMEDOUT: return "ETIMEDOUT"
        case LinuxBluetoothABI.errnoRFKill: return "ERFKILL"
        default: return errnoName(code) ?? "errno \(code)"
        }
    }
}
