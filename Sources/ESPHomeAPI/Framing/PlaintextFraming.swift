/// The plaintext framing: 0x00, the body's length as a varint, the message type as a varint, the
/// body. A proxy without a key speaks it (ESPHome's default without `api: encryption:`).
public struct PlaintextFraming: Sendable {
    /// The largest body accepted: ESPHome's own limit is in the same range, and no message a
    /// Bluetooth proxy receives (a GATT write is at most 512 bytes) comes near it.
    public static let maximumBodyLength = 32_768

    private var received = ReceivedBytes()

    public init() {}

    /// Bytes as they came from the socket, in any split.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        received.append(bytes)
    }

    /// The next whole frame, or nil until its last byte has arrived.
    public mutating func next() throws(APIFramingError) -> APIFrame? {
        let buffer = received.bytes
        guard received.unread > 0 else { return nil }
        guard buffer[received.start] == 0x00 else { throw .badIndicator(found: buffer[received.start], expected: 0x00) }
        var position = received.start + 1
        guard let length = try Self.varint(buffer, at: &position, maximumBytes: 3) else { return nil }
        guard length <= UInt64(Self.maximumBodyLength) else {
            throw .frameTooLarge(length: Int(clamping: length), limit: Self.maximumBodyLength)
        }
        guard let type = try Self.varint(buffer, at: &position, maximumBytes: 3) else { return nil }
        guard type <= UInt64(UInt16.max) else { throw .malformedHeader }
        let end = position + Int(length)
        guard end <= buffer.count else { return nil }
        let frame = APIFrame(type: UInt16(type), payload: Array(buffer[position..<end]))
        received.consume(upTo: end)
        return frame
    }

    /// One frame's bytes, appended to `output`.
    public static func encode(_ frame: APIFrame, into output: inout [UInt8]) {
        output.append(0x00)
        appendVarint(UInt64(frame.payload.count), to: &output)
        appendVarint(UInt64(frame.type), to: &output)
        output.append(contentsOf: frame.payload)
    }

    /// nil while the varint's bytes are still arriving; throws when it is longer than a header
    /// allows (a client that streams 0xFF bytes would otherwise grow it without end).
    private static func varint(_ buffer: [UInt8], at position: inout Int, maximumBytes: Int) throws(APIFramingError) -> UInt64? {
        var value: UInt64 = 0
        for index in 0..<maximumBytes {
            guard position < buffer.count else { return nil }
            let byte = buffer[position]
            position += 1
            value |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            if byte & 0x80 == 0 { return value }
        }
        throw .malformedHeader
    }

}

func appendVarint(_ value: UInt64, to output: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
        output.append(UInt8(rest & 0x7F) | 0x80)
        rest >>= 7
    }
    output.append(UInt8(rest))
}
