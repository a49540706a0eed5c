/// UTF-8 text built in a byte buffer, for the decoder's headlines and field values.
///
/// `rtstack decode` writes hundreds of thousands of lines a second. Building them from
/// `String` pieces allocates and copies for every concatenation; appending bytes to one
/// growing buffer does neither, and the buffer goes to the output as it is.
///
/// The bytes live in memory of its own (`TextStorage`) rather than an `[UInt8]`: an append is
/// then a capacity check, a uniqueness check and a copy, where `Array` spent about a hundred
/// instructions of generic bookkeeping a call — more than copying a typical label or value.
/// Copies share the memory until one of them is changed (copy on write, like `Array`).
public struct TextBuffer: Sendable {
    @usableFromInline var storage: TextStorage
    /// Length of the text, in bytes.
    @usableFromInline var used: Int

    public init() {
        storage = TextStorage.empty
        used = 0
    }

    public init(capacity: Int) {
        storage = capacity > 0 ? TextStorage(capacity: capacity) : TextStorage.empty
        used = 0
    }

    @inlinable public var count: Int { used }
    @inlinable public var isEmpty: Bool { used == 0 }

    /// A copy of the text's bytes.
    public var bytes: [UInt8] { withUnsafeBufferPointer { Array($0) } }

    @inlinable public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: storage.base, count: used)) }
    }

    /// The text as a `String`; allocates only when longer than a small string (15 bytes).
    public var string: String { withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }

    /// Empties the text, keeping the memory for the next one.
    public mutating func removeAll() { used = 0 }

    /// Drops the last `k` bytes (all of them when there are fewer).
    public mutating func removeLast(_ k: Int) { used -= Swift.min(Swift.max(k, 0), used) }

    /// Where the next `n` bytes go, after making sure they fit and the memory is not shared.
    /// The caller writes them and adds `n` to `used`.
    @inlinable mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if used + n > storage.capacity || !isKnownUniquelyReferenced(&storage) { makeRoom(used + n) }
        return storage.base + used
    }

    /// Moves the text to memory of its own with room for `needed` bytes, doubling so that
    /// appends stay amortised O(1).
    @usableFromInline mutating func makeRoom(_ needed: Int) {
        let grown = TextStorage(capacity: Swift.max(needed, 2 * storage.capacity, 64))
        grown.base.update(from: storage.base, count: used)
        storage = grown
    }

    /// Grows by `n` bytes that `fill` writes, every one of them (for fixed-size pieces such as
    /// hex, written faster in place than appended byte by byte).
    @inlinable public mutating func appendUninitialized(_ n: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        guard n > 0 else { return }
        fill(UnsafeMutableBufferPointer(start: reserve(n), count: n))
        used += n
    }

    @inlinable public mutating func append(byte: UInt8) {
        reserve(1).pointee = byte
        used += 1
    }

    @inlinable public mutating func append(bytes source: UnsafeBufferPointer<UInt8>) {
        guard let from = source.baseAddress, source.count > 0 else { return }
        TextBuffer.copy(from: from, to: reserve(source.count), count: source.count)
        used += source.count
    }

    /// `to.update(from:count:)`, with the short copies that make up most text (labels,
    /// names, numbers) done in two overlapping loads and stores instead of a `memmove` call.
    @inlinable public static func copy(from: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt8>, count n: Int) {
        let source = UnsafeRawPointer(from)
        let target = UnsafeMutableRawPointer(to)
        switch n {
        case 8...16:
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: n &- 8, as: UInt64.self)
        case 4..<8:
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
        case 1..<4:
            to[0] = from[0]
            to[n &- 1] = from[n &- 1]
            to[n >> 1] = from[n >> 1]
        case ..<1:
            break
        default:
            to.update(from: from, count: n)
        }
    }

    public mutating func append(_ other: TextBuffer) {
        other.withUnsafeBufferPointer { append(bytes: $0) }
    }

    /// Text fixed when the program was built (separators, labels, names from a table):
    /// copied straight from where the literal lies, without the checks a `String` needs
    /// to find its bytes. String literals choose this over `append(_: String)`.
    @inlinable public mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { append(bytes: $0) }
    }

    @_disfavoredOverload
    @inlinable public mutating func append(_ s: String) {
        // Native, literal and small strings are contiguous: one copy, no per-character
        // iteration, and (unlike `withUTF8`) no copy of the string to make it mutable.
        if s.utf8.withContiguousStorageIfAvailable({ append(bytes: $0) }) == nil {
            var s = s
            s.withUTF8 { append(bytes: $0) }
        }
    }

    /// `n` spaces (none when `n` is not positive), for indentation and alignment.
    public mutating func appendSpaces(_ n: Int) {
        guard n > 0 else { return }
        reserve(n).update(repeating: 0x20, count: n)
        used += n
    }

    /// Decimal, `-` for negative values, as `String(v)` writes it.
    public mutating func appendDecimal(_ v: Int) {
        if v < 0 { append(byte: 0x2D) }
        appendDecimal(magnitude: UInt64(v.magnitude))
    }

    /// `appendDecimal(_:)` right-aligned with spaces in at least `width` characters.
    public mutating func appendDecimal(_ v: Int, width: Int) {
        if v >= 0 {
            appendDecimal(magnitude: UInt64(v), width: width)
            return
        }
        var length = 2
        var x = v.magnitude
        while x >= 10 { x /= 10; length += 1 }
        appendSpaces(width - length)
        appendDecimal(v)
    }

    public mutating func appendDecimal(magnitude v: UInt64) {
        // One digit is most common by far (levels, counts, lengths of small things).
        if v < 10 {
            append(byte: 0x30 &+ UInt8(truncatingIfNeeded: v))
        } else {
            appendDecimal(magnitude: v, width: 0)
        }
    }

    /// `v` in decimal, right-aligned in at least `width` characters filled with `padding`
    /// (spaces for the headline's packet number and time, zeros for the time's fraction),
    /// written in one piece, two digits a step.
    public mutating func appendDecimal(magnitude v: UInt64, width: Int, padding: UInt8 = 0x20) {
        var digits = 1
        var power: UInt64 = 10
        while digits < 20, v >= power {
            digits &+= 1
            power = power &* 10
        }
        let n = Swift.max(digits, width)
        let to = reserve(n)
        var end = n
        var rest = v
        DecimalPairs.table.withUnsafeBufferPointer { pairs in
            let raw = UnsafeMutableRawPointer(to)
            while rest >= 100 {
                let quotient = rest / 100
                end &-= 2
                raw.storeBytes(of: pairs[Int(truncatingIfNeeded: rest &- quotient &* 100)], toByteOffset: end, as: UInt16.self)
                rest = quotient
            }
            if rest >= 10 {
                end &-= 2
                raw.storeBytes(of: pairs[Int(truncatingIfNeeded: rest)], toByteOffset: end, as: UInt16.self)
            } else {
                end &-= 1
                to[end] = 0x30 &+ UInt8(truncatingIfNeeded: rest)
            }
        }
        if end > 0 { to.update(repeating: padding, count: end) }
        used += n
    }

    /// `0x` and at least `width` upper-case digits, as `Hex.number` writes it.
    public mutating func appendHexNumber<T: BinaryInteger>(_ v: T, width: Int) {
        let value = UInt64(truncatingIfNeeded: v)
        var digits = 1
        while digits < 16, value >> (4 * UInt64(digits)) != 0 { digits += 1 }
        appendHexDigits(value, count: max(digits, min(width, 16)), upper: true)
    }

    /// ` (0x…)`: `appendHexNumber` in parentheses after a space, the way names show the
    /// number they came from (`Success (0x00)`); written in one piece.
    public mutating func appendParenthesizedHexNumber<T: BinaryInteger>(_ v: T, width: Int) {
        let value = UInt64(truncatingIfNeeded: v)
        var digits = 1
        while digits < 16, value >> (4 * UInt64(digits)) != 0 { digits += 1 }
        let n = max(digits, min(width, 16))
        let to = reserve(n &+ 5)
        to[0] = 0x20
        to[1] = 0x28
        writeHexDigits(value, count: n, upper: true, to: to + 2)
        to[n &+ 4] = 0x29
        used += n &+ 5
    }

    /// `0x` and exactly `width` lower-case digits, as `Hex.lowerNumber` writes it.
    public mutating func appendLowerHexNumber<T: BinaryInteger>(_ v: T, width: Int) {
        appendHexDigits(UInt64(truncatingIfNeeded: v), count: min(max(width, 1), 16), upper: false)
    }

    private mutating func appendHexDigits(_ value: UInt64, count n: Int, upper: Bool) {
        let to = reserve(n &+ 2)
        writeHexDigits(value, count: n, upper: upper, to: to)
        used += n &+ 2
    }

    /// `0x` and the low `n` digits of `value` at `to`.
    @inline(__always)
    private func writeHexDigits(_ value: UInt64, count n: Int, upper: Bool, to: UnsafeMutablePointer<UInt8>) {
        to[0] = 0x30
        to[1] = 0x78
        var v = value
        var i = n &+ 1
        while i >= 2 {
            to[i] = TextBuffer.hexDigit(UInt8(truncatingIfNeeded: v), upper: upper)
            v >>= 4
            i &-= 1
        }
    }

    /// The ASCII digit of the low four bits of `v` (arithmetic: a table would be a lazily
    /// initialised global, checked on every use).
    @inline(__always) static func hexDigit(_ v: UInt8, upper: Bool = false) -> UInt8 {
        let n = v & 0x0F
        return n < 10 ? 0x30 &+ n : (upper ? 0x37 : 0x57) &+ n
    }

    /// Lower-case hex with one space between bytes, as `Hex.spaced` writes it.
    public mutating func appendSpacedHex(_ data: ArraySlice<UInt8>) {
        appendHexPairs(data, separator: 0x20, HexPairs.lower)
    }

    /// Lower-case hex without separators, as `Hex.string` writes it.
    public mutating func appendCompactHex(_ data: ArraySlice<UInt8>) {
        appendHexPairs(data, separator: nil, HexPairs.lower)
    }

    /// `AA:BB:CC:DD:EE:FF` from six bytes in wire order, as `BDAddress.string` writes it,
    /// without making a `BDAddress` (which copies the bytes into an array of its own).
    public mutating func appendAddress(wireOrder b: ArraySlice<UInt8>) {
        var msbFirst: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &msbFirst) { out in
            for i in 0..<6 where i < b.count { out[5 - i] = b[b.startIndex + i] }
        }
        withUnsafeBytes(of: msbFirst) { appendHexPairs($0.bindMemory(to: UInt8.self), separator: 0x3A, HexPairs.upper) }
    }

    private mutating func appendHexPairs(_ data: ArraySlice<UInt8>, separator: UInt8?, _ table: [UInt16]) {
        data.withUnsafeBufferPointer { appendHexPairs($0, separator: separator, table) }
    }

    /// Two digits a byte from `table`, `separator` between bytes: the most frequent value of
    /// all (every payload, advertising data and address), so written two digits a store.
    private mutating func appendHexPairs(_ data: UnsafeBufferPointer<UInt8>, separator: UInt8?, _ table: [UInt16]) {
        guard !data.isEmpty else { return }
        // One byte of room more than the text: the last pair's separator is written too.
        let to = reserve(data.count &* 3)
        used += HexPairs.write(data, separator: separator, table, to: UnsafeMutableBufferPointer(start: to, count: data.count &* 3))
    }
}

/// The two ASCII decimal digits of 0…99, as one `UInt16` in memory order.
enum DecimalPairs {
    static let table: [UInt16] = (0...99).map { (n: Int) -> UInt16 in
        let tens = UInt16(0x30 + n / 10)
        let ones = UInt16(0x30 + n % 10)
        return (tens | ones << 8).littleEndian
    }
}

/// The two ASCII hex digits of every byte value, as one `UInt16` in memory order: hex text
/// written with one load and one store a byte (a store of the pair at an unaligned offset).
public enum HexPairs {
    public static let lower: [UInt16] = (0...255).map { pair(UInt8($0), upper: false) }
    public static let upper: [UInt16] = (0...255).map { pair(UInt8($0), upper: true) }

    /// Writes the hex of `data` at `to`, `separator` after each pair (the last one included,
    /// so `to` needs three bytes a byte with a separator, two without); returns the length of
    /// the text, the last separator left out.
    @discardableResult
    static func write(_ data: UnsafeBufferPointer<UInt8>, separator: UInt8?, _ table: [UInt16],
                      to: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard !data.isEmpty, let base = to.baseAddress else { return 0 }
        let raw = UnsafeMutableRawPointer(base)
        let step = separator == nil ? 2 : 3
        table.withUnsafeBufferPointer { pairs in
            var o = 0
            for b in data {
                raw.storeBytes(of: pairs[Int(b)], toByteOffset: o, as: UInt16.self)
                if let separator { raw.storeBytes(of: separator, toByteOffset: o &+ 2, as: UInt8.self) }
                o &+= step
            }
        }
        return data.count &* step &- (step &- 2)
    }

    private static func pair(_ b: UInt8, upper: Bool) -> UInt16 {
        let high = UInt16(TextBuffer.hexDigit(b >> 4, upper: upper))
        let low = UInt16(TextBuffer.hexDigit(b, upper: upper))
        // Memory order: the high digit first, whatever the byte order of the machine.
        return (high | low << 8).littleEndian
    }
}

/// The memory of a `TextBuffer`. Written only through a buffer that holds the only reference
/// (copy on write), so sharing it between threads only ever reads it.
@usableFromInline final class TextStorage: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int

    /// Shared by every empty buffer, so that making one allocates nothing.
    @usableFromInline static let empty = TextStorage(capacity: 0)

    @usableFromInline init(capacity: Int) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { base.deallocate() }
}
