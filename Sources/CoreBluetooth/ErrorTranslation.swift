import Foundation
import HostCore
import Runtime
import Wire

/// rtstack's errors as the ones an iOS app checks for, each with rtstack's sentence as its
/// `localizedDescription`.
enum ErrorTranslation {
    /// The error a delegate is given for a failed request.
    static func delegateError(_ error: any Error) -> any Error {
        guard let c = error as? CentralError else { return CBError(.unknown, reason: "\(error)") }
        switch c {
        case .host(let h):
            switch h {
            case let .att(code, _, _): return CBATTError(attErrorCode: code, reason: h.description)
            case .disconnected(let reason): return disconnection(reason, text: h.description)
            case .connectTimeout, .attTimeout: return CBError(.connectionTimeout, reason: h.description)
            case .connectionFailed: return CBError(.connectionFailed, reason: h.description)
            case .unsupportedByPeer: return CBError(.operationNotSupported, reason: h.description)
            case .security: return CBATTError(attErrorCode: 0x05, reason: h.description)
            default: return CBError(.unknown, reason: h.description)
            }
        case .closed, .adapter, .unavailable:
            return CBError(.notConnected, reason: c.description)
        case .timeout(let s):
            return CBError(.connectionTimeout, reason: s)
        }
    }

    /// A link's end: Connection Timeout (0x08, the supervision timeout, Core Spec v5.4 Vol 1,
    /// Part F, §1.3) is `.connectionTimeout`, every other reason `.peripheralDisconnected`.
    static func disconnection(_ reason: HCIStatus?, text: String) -> CBError {
        CBError(reason?.rawValue == 0x08 ? .connectionTimeout : .peripheralDisconnected, reason: text)
    }

    /// The manager's state after opening the adapter failed: no adapter is `.unsupported`, no
    /// permission `.unauthorized`, anything else (down, blocked, busy, lost) `.poweredOff`.
    static func state(after error: any Error) -> CBManagerState {
        guard let c = error as? CentralError else { return .poweredOff }
        switch c {
        case .unavailable(.transport(let t)): return state(after: t)
        case .unavailable(.kernel(let k)):
            switch k {
            case .socket(let e), .management(let e): return state(errno: e.errno)
            default: return .poweredOff
            }
        case .unavailable(.notAKernelAdapter): return .unsupported
        default: return .poweredOff
        }
    }

    private static func state(after t: TransportError) -> CBManagerState {
        switch t {
        case .hciSocket(let e): return state(errno: e.errno)
        case .openFailed(_, let code): return state(errno: code)
        case .connectionRefused, .hostNotFound, .connectTimedOut: return .unsupported
        default: return .poweredOff
        }
    }

    private static func state(errno code: Int32) -> CBManagerState {
        switch code {
        case EPERM, EACCES: return .unauthorized
        case EAFNOSUPPORT, ENODEV, ENOENT: return .unsupported
        default: return .poweredOff
        }
    }
}
