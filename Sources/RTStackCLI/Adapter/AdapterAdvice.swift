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
            case .notAKernelAdapter: return e.description + "; leave out --backend kernel for serial, TCP and replay adapters"
            }
        case let p as KernelAdapterProblem:
            return text(for: p)
        case let e as HCISocketError:
            return text(for: e)
        case let t as TransportError:
            return text(for: t)
        case let h as HostError:
            return text(for: h)
        case let c as CentralError:
            switch c {
            case .unavailable(let e): return text(for: e)
            case .adapter(let t): return text(for: t)
            case .host(let h): return text(for: h)
            case .closed: return c.description + "; the adapter was lost or rtstack was stopping (the message before says which): run again"
            case .timeout: return c.description + "; run again, and check that the peer is in range"
            }
        default:
            return "\(error)"
        }
    }

    /// A transport that could not be opened or was lost, with what to do.
    static func text(for error: TransportError) -> String {
        if case .hciSocket(let e) = error { return text(for: e) }
        return error.description + (remedy(for: error).map { "; " + $0 } ?? "")
    }

    /// What to do about a transport's failure; nil where its description names the fix
    /// already. Every case is here (the switch is exhaustive, so a new cause does not compile
    /// without its advice).
    static func remedy(for error: TransportError) -> String? {
        switch error {
        case .hciSocket:
            return nil  // said by text(for: HCISocketError)
        case .endOfStream, .closedMidPacket, .connectionReset:
            return "the controller or the program serving it (a TCP bridge, btproxy, Bumble) went away: "
                + "check that it still runs (and the cable of a serial controller), then run again"
        case .connectionRefused:
            return "start the controller's TCP server (btproxy, Bumble, an H4 bridge) or check the host and port"
        case .connectTimedOut, .portInUse:
            return nil
        case .openFailed(_, let code):
            return [ENOENT, EACCES, EBUSY].contains(code) ? nil
                : "check that the path is the controller's serial device (ls /dev/ttyUSB* /dev/ttyACM*)"
        case .hostNotFound:
            return "check the host name in tcp:HOST:PORT, or give an IP address"
        case .notATerminal:
            return "give the controller's serial device (ls /dev/ttyUSB* /dev/ttyACM*), or tcp:HOST:PORT for a TCP bridge"
        case .unsupportedBaudRate:
            return "give one of them after '@' (serial:/dev/ttyACM0@1000000)"
        case .baudRateNotApplied:
            return "give a rate the USB-serial chip supports (115200 works on all), or check that the device is a serial port"
        case .writeQueueFull:
            return "check the wiring of RTS/CTS, or give ',noflow' when the controller has no flow control"
        case .closed:
            return "rtstack was stopping: run again"
        case .unavailable:
            return "give a btsnoop, pcap or pcapng capture that holds the controller's side of a session (rtstack decode FILE shows what it holds)"
        case .systemCall:
            return "check that the adapter's device still exists and that rtstack may use it, then run again"
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
                ? " (is the controller plugged in and its driver loaded? UART controllers need btattach)"
                : "; give one of those (rtstack adapters lists them with who holds each)")
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
            return cause + "; check that the adapter still exists (rtstack adapters lists them), then run again"
        }
    }

    /// A host error as one sentence: a controller that did not come up or failed for good
    /// (a command never answered, a hardware error) is told with its remedy too.
    static func text(for error: HostError) -> String {
        error.explanation
    }
}
