/// A value with a fixed wire layout. `init(decoding:)` consumes exactly the bytes that belong to
/// the value and throws `WireError` on anything short or invalid; it never traps.
public protocol WireCodable: Sendable {
    init(decoding reader: inout ByteReader) throws(WireError)
    func encode(into writer: inout ByteWriter)
}

extension WireCodable {
    /// Decodes from a whole buffer; bytes left over after the value are ignored, as the
    /// specification requires of receivers for forward compatibility.
    public init(bytes: ArraySlice<UInt8>) throws(WireError) {
        var r = ByteReader(bytes)
        try self.init(decoding: &r)
    }

    public init(bytes: [UInt8]) throws(WireError) {
        try self.init(bytes: bytes[...])
    }

    public var encoded: [UInt8] {
        var w = ByteWriter()
        encode(into: &w)
        return w.bytes
    }
}
