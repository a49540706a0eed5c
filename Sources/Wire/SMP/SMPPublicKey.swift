/// A P-256 public key as carried by Pairing Public Key (Core Spec v5.4 Vol 3, Part H,
/// §3.5.6): X and Y, 32 bytes each. Held most significant byte first — the order the
/// specification writes them in and crypto libraries take — and reversed on the wire, where
/// both go least significant byte first. Decoding checks only the length; whether the point
/// lies on the curve is for the pairing procedure to check (§2.3.5.6.1), with a crypto
/// library.
public struct SMPPublicKey: Hashable, Sendable {
    /// 32 bytes, most significant first.
    public let x: [UInt8]
    /// 32 bytes, most significant first.
    public let y: [UInt8]

    public static let coordinateSize = 32

    /// From coordinates most significant byte first; nil unless both are 32 bytes.
    public init?(x: [UInt8], y: [UInt8]) {
        guard x.count == Self.coordinateSize, y.count == Self.coordinateSize else { return nil }
        self.x = x
        self.y = y
    }

    init(decoding r: inout ByteReader) throws(WireError) {
        x = Array(try r.bytes(Self.coordinateSize, "Public Key X").reversed())
        y = Array(try r.bytes(Self.coordinateSize, "Public Key Y").reversed())
    }

    func encode(into w: inout ByteWriter) {
        w.append(x.reversed())
        w.append(y.reversed())
    }

    /// The uncompressed point encoding of SEC 1 §2.3.3 (0x04, X, Y), as crypto libraries take it.
    public var uncompressedPoint: [UInt8] { [0x04] + x + y }
}
