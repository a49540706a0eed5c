/// What was wrong with the bytes a client sent, before any message could be read from them.
/// Each of these closes that client's connection (ESPHome does the same); the text is the log
/// line, so it names the client's likely mistake.
public enum APIFramingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first byte of a frame is neither 0x00 (plaintext) nor 0x01 (Noise) as expected.
    case badIndicator(found: UInt8, expected: UInt8)
    /// A frame announces more bytes than this proxy accepts in one message.
    case frameTooLarge(length: Int, limit: Int)
    /// A plaintext header's length or type varint runs past 3 or 2 bytes, or the type past 65,535.
    case malformedHeader
    /// A decrypted Noise frame is shorter than its 4-byte type-and-length header, or its length
    /// field exceeds what it holds.
    case malformedNoiseMessage(length: Int)

    public var description: String {
        switch self {
        case let .badIndicator(found, expected) where expected == 0x01 && found == 0x00:
            return "the client speaks the plaintext API but this proxy requires encryption: give the client the proxy's key (Home Assistant: the device's encryption key)"
        case let .badIndicator(found, expected) where expected == 0x00 && found == 0x01:
            return "the client speaks the encrypted (Noise) API but this proxy has no key: start the gateway with --esphome-key, or remove the key from the client"
        case let .badIndicator(found, expected):
            return "frame begins with 0x\(hexByte(found)), not 0x\(hexByte(expected)): the client does not speak ESPHome's native API"
        case let .frameTooLarge(length, limit):
            return "frame of \(length) bytes exceeds this proxy's limit of \(limit) bytes"
        case .malformedHeader:
            return "frame header's length or type is not a valid varint"
        case let .malformedNoiseMessage(length):
            return "decrypted message of \(length) bytes has no valid type-and-length header"
        }
    }
}

func hexByte(_ byte: UInt8) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
