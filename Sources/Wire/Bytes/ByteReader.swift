/// Cursor over little-endian protocol bytes.
///
/// Every read is bounds-checked and throws `WireError` (typed, so no existential box is
/// allocated on the success path). Reads of byte runs return slices of the input: payloads
/// are never copied while decoding.
public struct ByteReader: Sendable {
    public private(set) var remaining: ArraySlice<UInt8>
    private let startIndex: Int

    public init(_ bytes: ArraySlice<UInt8>) {
        remaining = bytes
        startIndex = bytes.startIndex
    }

    public init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// Bytes not yet read.
    @inlinable public var count: Int { remaining.count }
    @inlinable public var isAtEnd: Bool { remaining.isEmpty }
    /// Bytes read so far, counted from the start of the input this reader was made with.
    public var offset: Int { remaining.startIndex - startIndex }

    @inline(__always)
    private func need(_ n: Int, _ field: StaticString) throws(WireError) {
        if remaining.count < n {
            throw WireError.truncated(field: field.description, needed: n, available: remaining.count)
        }
    }

    public mutating func u8(_ field: StaticString = "u8") throws(WireError) -> UInt8 {
        try need(1, field)
        let i = remaining.startIndex
        let v = remaining[i]
        remaining = remaining[(i + 1)...]
        return v
    }

    public mutating func u16(_ field: StaticString = "u16") throws(WireError) -> UInt16 {
        try need(2, field)
        let i = remaining.startIndex
        let b = remaining
        remaining = remaining[(i + 2)...]
        return UInt16(b[i]) | UInt16(b[i + 1]) << 8
    }

    public mutating func u24(_ field: StaticString = "u24") throws(WireError) -> UInt32 {
        try need(3, field)
        let i = remaining.startIndex
        let b = remaining
        remaining = remaining[(i + 3)...]
        return UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16
    }

    public mutating func u32(_ field: StaticString = "u32") throws(WireError) -> UInt32 {
        try need(4, field)
        let i = remaining.startIndex
        let b = remaining
        remaining = remaining[(i + 4)...]
        return UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    public mutating func u64(_ field: StaticString = "u64") throws(WireError) -> UInt64 {
        let lo = try u32(field)
        let hi = try u32(field)
        return UInt64(lo) | UInt64(hi) << 32
    }

    /// 16 bytes least significant first, as SMP carries keys and random values.
    public mutating func u128(_ field: StaticString = "u128") throws(WireError) -> UInt128 {
        let lo = try u64(field)
        let hi = try u64(field)
        return UInt128(lo) | UInt128(hi) << 64
    }

    /// Big-endian reads, for capture-file headers (btsnoop is big-endian).
    public mutating func u16BE(_ field: StaticString = "u16") throws(WireError) -> UInt16 {
        try need(2, field)
        let i = remaining.startIndex
        let b = remaining
        remaining = remaining[(i + 2)...]
        return UInt16(b[i]) << 8 | UInt16(b[i + 1])
    }

    public mutating func u32BE(_ field: StaticString = "u32") throws(WireError) -> UInt32 {
        try need(4, field)
        let i = remaining.startIndex
        let b = remaining
        remaining = remaining[(i + 4)...]
        return UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    public mutating func u64BE(_ field: StaticString = "u64") throws(WireError) -> UInt64 {
        let hi = try u32BE(field)
        let lo = try u32BE(field)
        return UInt64(hi) << 32 | UInt64(lo)
    }

    public mutating func i8(_ field: StaticString = "i8") throws(WireError) -> Int8 {
        Int8(bitPattern: try u8(field))
    }

    public mutating func i16(_ field: StaticString = "i16") throws(WireError) -> Int16 {
        Int16(bitPattern: try u16(field))
    }

    /// The next `n` bytes as a slice of the input (no copy).
    public mutating func bytes(_ n: Int, _ field: StaticString = "bytes") throws(WireError) -> ArraySlice<UInt8> {
        if n < 0 { throw WireError.invalidValue(field: field.description, value: UInt64(bitPattern: Int64(n))) }
        try need(n, field)
        let i = remaining.startIndex
        let out = remaining[i..<(i + n)]
        remaining = remaining[(i + n)...]
        return out
    }

    /// Everything not yet read.
    public mutating func rest() -> ArraySlice<UInt8> {
        let out = remaining
        remaining = remaining[remaining.endIndex...]
        return out
    }

    public mutating func skip(_ n: Int, _ field: StaticString = "skip") throws(WireError) {
        _ = try bytes(n, field)
    }

    /// Peeks without consuming.
    public func peekU8() -> UInt8? { remaining.first }
}
