/// Why a Noise handshake or session ended. The descriptions are the log lines; the reject text a
/// client sees is `rejectReason`, worded as ESPHome words it (aioesphomeapi matches "Handshake
/// MAC failure" to report a wrong encryption key).
public enum NoiseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The client's first handshake message does not authenticate: it holds another key.
    case authenticationFailed
    /// The handshake message is not 0x00 followed by an ephemeral key and a tag.
    case malformedHandshake(length: Int)
    /// 2⁶⁴ messages in one direction.
    case nonceExhausted

    public var description: String {
        switch self {
        case .authenticationFailed:
            return "the client's handshake does not authenticate with this proxy's key: the client holds another encryption key"
        case let .malformedHandshake(length):
            return "handshake message of \(length) bytes is not a Noise_NNpsk0 initiator message"
        case .nonceExhausted:
            return "2^64 messages in one session"
        }
    }

    var rejectReason: String {
        switch self {
        case .authenticationFailed: return "Handshake MAC failure"
        case .malformedHandshake: return "Handshake error"
        case .nonceExhausted: return "Handshake error"
        }
    }
}
