/// Little-endian encoder; the counterpart of `ByteReader`.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 32) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inlinable public var count: Int { bytes.count }

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func i8(_ v: Int8) { bytes.append(UInt8(bitPattern: v)) }

    public mutating func u16(_ v: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: v))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    }

    public mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }

    public mutating func u24(_ v: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: v))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v >> 16))
    }

    public mutating func u32(_ v: UInt32) {
        u16(UInt16(truncatingIfNeeded: v))
        u16(UInt16(truncatingIfNeeded: v >> 16))
    }

    public mutating func u64(_ v: UInt64) {
        u32(UInt32(truncatingIfNeeded: v))
        u32(UInt32(truncatingIfNeeded: v >> 32))
    }

    /// 16 bytes least significant first (SMP keys and random values).
    public mutating func u128(_ v: UInt128) {
        u64(UInt64(truncatingIfNeeded: v))
        u64(UInt64(truncatingIfNeeded: v >> 64))
    }

    public mutating func u16BE(_ v: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    public mutating func u32BE(_ v: UInt32) {
        u16BE(UInt16(truncatingIfNeeded: v >> 16))
        u16BE(UInt16(truncatingIfNeeded: v))
    }

    public mutating func u64BE(_ v: UInt64) {
        u32BE(UInt32(truncatingIfNeeded: v >> 32))
        u32BE(UInt32(truncatingIfNeeded: v))
    }

    public mutating func append<S: Sequence>(_ s: S) where S.Element == UInt8 {
        bytes.append(contentsOf: s)
    }

    /// Overwrites two bytes already written, for length fields known only at the end.
    public mutating func patchU16(at index: Int, _ v: UInt16) {
        guard index >= 0, index + 1 < bytes.count else { return }
        bytes[index] = UInt8(truncatingIfNeeded: v)
        bytes[index + 1] = UInt8(truncatingIfNeeded: v >> 8)
    }
}
