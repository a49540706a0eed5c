/// The encrypted framing's outer layer: 0x01, a 16-bit big-endian length, then that many bytes
/// (a handshake message, or a ChaCha20-Poly1305 ciphertext of type, length and body).
public struct NoiseFraming: Sendable {
    /// Handshake frames are short (the client's is 49 bytes); a longer one during the handshake
    /// is refused, as ESPHome does, so a client cannot make the proxy buffer 64 KB per attempt.
    public static let maximumHandshakeLength = 128
    /// The largest encrypted frame accepted once the handshake is done.
    public static let maximumDataLength = PlaintextFraming.maximumBodyLength + 4 + 16

    private var received = ReceivedBytes()

    public init() {}

    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        received.append(bytes)
    }

    /// The next whole frame's contents, or nil until its last byte has arrived.
    public mutating func next(limit: Int) throws(APIFramingError) -> [UInt8]? {
        let buffer = received.bytes
        let start = received.start
        guard received.unread >= 3 else {
            if received.unread > 0, buffer[start] != 0x01 { throw .badIndicator(found: buffer[start], expected: 0x01) }
            return nil
        }
        guard buffer[start] == 0x01 else { throw .badIndicator(found: buffer[start], expected: 0x01) }
        let length = Int(buffer[start + 1]) << 8 | Int(buffer[start + 2])
        guard length <= limit else { throw .frameTooLarge(length: length, limit: limit) }
        let end = start + 3 + length
        guard end <= buffer.count else { return nil }
        let contents = Array(buffer[(start + 3)..<end])
        received.consume(upTo: end)
        return contents
    }

    public static func encode(_ contents: [UInt8], into output: inout [UInt8]) {
        output.append(0x01)
        output.append(UInt8(truncatingIfNeeded: contents.count >> 8))
        output.append(UInt8(truncatingIfNeeded: contents.count))
        output.append(contentsOf: contents)
    }
}
