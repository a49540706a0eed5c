import Wire

/// Why a request failed. Every case names the code and what it means, so the CLI can print
/// it without knowing the protocol.
public enum HostError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A command answered with a non-success status.
    case commandFailed(HCIOpcode, HCIStatus)
    /// A command got neither Command Complete nor Command Status in time.
    case commandTimeout(HCIOpcode)
    /// LE Create Connection did not complete in time and was cancelled.
    case connectTimeout(DeviceAddress)
    /// The connection attempt ended with this status (e.g. 0x3E).
    case connectionFailed(HCIStatus)
    /// The link went away while the request was pending.
    case disconnected(HCIStatus)
    /// The peer answered with an ATT Error Response.
    case att(error: UInt8, request: UInt8, handle: UInt16)
    /// The peer did not answer an ATT request within 30 s; the bearer is closed for ATT.
    case attTimeout(request: UInt8)
    /// The peer's answer did not follow the protocol.
    case protocolViolation(String)
    /// No such link, characteristic or descriptor.
    case notFound(String)
    /// The controller reported a Hardware Error or the transport was lost.
    case controller(String)
    /// The request is not possible in the current state (e.g. no controller yet).
    case invalidState(String)
    /// The peer does not offer what the request needs (it says so, e.g. in Server Supported
    /// Features), so nothing was asked of it.
    case unsupportedByPeer(String)
    /// The adapter the kernel keeps (`--backend kernel`) failed; names the adapter and the cause.
    case adapter(String, AdapterFailure)
    /// The link could not be secured as it must be (pairing or encryption failed).
    case security(SecurityFailure)

    public var description: String {
        switch self {
        case let .commandFailed(op, status):
            return "\(op.description) failed: \(status.description)"  // what to do: `remedy`
        case let .commandTimeout(op):
            return "\(op.description) got no answer from the controller"
        case let .connectTimeout(addr):
            return "connecting to \(addr) timed out (device absent or not connectable); cancelled"
        case let .connectionFailed(status):
            return "connection failed: \(status.description)"
        case let .disconnected(reason):
            return "disconnected: \(reason.description)"
        case let .att(error, request, handle):
            return "ATT error \(ATTErrorCode(error)) for \(ATTOpcode(request)) on handle \(Hex.number(handle, width: 4))"
        case let .attTimeout(request):
            return "ATT \(ATTOpcode(request)) timed out after 30 s; the link can no longer be used for ATT"
        case let .protocolViolation(s):
            return "peer broke the protocol: \(s)"
        case let .notFound(s):
            return "not found: \(s)"
        case let .controller(s):
            return "controller failure: \(s)"
        case let .invalidState(s):
            return "not possible now: \(s)"
        case let .unsupportedByPeer(s):
            return "the peer does not support it: \(s)"
        case let .adapter(name, failure):
            return "\(name): \(failure)"
        case let .security(failure):
            return failure.description
        }
    }
}

@inline(__always)
func hex<T: BinaryInteger>(_ v: T, _ width: Int) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}
