#if canImport(Glibc)
import Glibc
#endif
import HostCore
import Runtime

/// What to do about an adapter that failed: the Runtime and the host core report causes; the
/// fix belongs to the user's world (a capability, rfkill, another program), so it is said here.
enum AdapterAdvice {
    static func text(for error: any Error) -> String {
        switch error {
        case let e as AdapterOpenError:
            switch e {
            case .kernel(let problem): return text(for: problem)
            case .transport(let t): return text(for: t)
            default: return e.description
            }
        case let p as KernelAdapterProblem:
            return text(for: p)
        case let e as HCISocketError:
            return text(for: e)
        case let t as TransportError:
            if case .hciSocket(let e) = t { return text(for: e) }
            return t.description
        case let h as HostError:
            return text(for: h)
        case let c as CentralError:
            switch c {
            case .unavailable(let e): return text(for: e)
            case .host(let h): return text(for: h)
            default: return c.description
            }
        default:
            return "\(error)"
        }
    }

    static func text(for problem: KernelAdapterProblem) -> String {
        switch problem {
        case .rfkillBlocked(_, let hard):
            return problem.description + "; unblock it with 'rfkill unblock bluetooth'"
                + (hard ? " (a hard block is a switch or the firmware: that command cannot lift it)" : "")
        case .heldByUserChannel:
            return problem.description + " (another rtstack with --backend user-channel, a Bumble or btproxy process). "
                + "Stop that program, or use another adapter (rtstack adapters lists them)"
        case .socket(let e), .management(let e):
            return text(for: e)
        }
    }

    /// The user channel's causes with their fixes.
    static func text(for error: HCISocketError) -> String {
        let cause = error.description
        switch error.errno {
        case EAFNOSUPPORT:
            return cause + ". Load it with 'modprobe bluetooth' plus the controller's driver (btusb, hci_uart); "
                + "a kernel built without it needs CONFIG_BT and a driver (CONFIG_BT_HCIBTUSB, CONFIG_BT_HCIUART). "
                + "Without kernel Bluetooth use a serial controller (--adapter /dev/ttyACM0) or tcp:HOST:PORT"
        case ENODEV:
            return cause + (error.present.isEmpty
                ? " (is the controller plugged in and its driver loaded? UART controllers need btattach)" : "")
        case EBUSY, EUSERS, EALREADY:
            let n = error.index.map(String.init) ?? "N"
            return cause + " (another rtstack, a Bumble or btproxy process). Stop that program, or stop bluetoothd "
                + "('systemctl stop bluetooth'), or power the adapter off for BlueZ ('btmgmt --index \(n) power off')"
        case EPERM where error.operation == .monitor, EACCES where error.operation == .monitor:
            return cause + ": the HCI monitor channel needs CAP_NET_RAW. Run as root, or grant it once: "
                + "sudo setcap cap_net_raw+ep $(which rtstack) (cap_net_admin,cap_net_raw+ep also lets --adapter hciN "
                + "take a user channel)"
        case EPERM, EACCES:
            return cause + ": the HCI user channel needs CAP_NET_ADMIN and CAP_NET_RAW. Run as root, or grant them once: "
                + "sudo setcap cap_net_admin,cap_net_raw+ep $(which rtstack)"
        case HCISocketError.rfkillErrno:
            return cause + "; unblock it with 'rfkill unblock bluetooth'"
        default:
            return cause
        }
    }

    static func text(for error: HostError) -> String {
        guard case let .adapter(_, failure) = error else { return error.description }
        switch failure {
        case .permissionDenied:
            return error.description + "; powering the adapter and scanning through the kernel need CAP_NET_ADMIN: "
                + "run as root, or grant it once: sudo setcap cap_net_admin,cap_net_raw+ep $(which rtstack)"
        case .rfkillBlocked:
            return error.description + "; unblock it with 'rfkill unblock bluetooth'"
        case .noSuchAdapter:
            return error.description + " (another rtstack with --backend user-channel?); rtstack adapters lists them"
        case .busy:
            return error.description + " (another program is changing it)"
        case .poweredOff:
            return error.description + " (bluetoothd or btmgmt powered it off; 'btmgmt --index N power on' powers it)"
        case .removed:
            return error.description + " (unplugged, or a user channel took it)"
        default:
            return error.description
        }
    }
}
