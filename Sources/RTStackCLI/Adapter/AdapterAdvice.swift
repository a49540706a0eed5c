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
            default: return e.description
            }
        case let p as KernelAdapterProblem:
            return text(for: p)
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
        case .socket, .management:
            return problem.description
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
