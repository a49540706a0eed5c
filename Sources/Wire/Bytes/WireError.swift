/// Why bytes could not be decoded. Decoders throw this instead of trapping, so a malformed
/// packet from a controller, a peer or a capture file becomes a report, never a crash.
public enum WireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer bytes were left than the field needs.
    case truncated(field: String, needed: Int, available: Int)
    /// A field holds a value the specification does not allow here.
    case invalidValue(field: String, value: UInt64)
    /// The bytes contradict themselves (a length that overruns its container, and so on).
    case malformed(String)

    public var description: String {
        switch self {
        case let .truncated(field, needed, available):
            return "truncated \(field): needs \(needed) byte(s), \(available) left"
        case let .invalidValue(field, value):
            return "invalid \(field): 0x\(String(value, radix: 16))"
        case let .malformed(reason):
            return "malformed: \(reason)"
        }
    }
}
