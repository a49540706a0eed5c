/// UTF-8 text built in a byte array, for the decoder's headlines and field values.
///
/// `rtstack decode` writes hundreds of thousands of lines a second. Building them from
/// `String` pieces allocates and copies for every concatenation; appending bytes to one
/// growing buffer does neither, and the buffer goes to the output as it is.
///
/// The array is kept longer than the text (`storage[count...]` is spare room), so that an
/// append is a bounds check and a copy: `Array.append(contentsOf:)` spends about a hundred
/// instructions a call on generic bookkeeping, more than copying a typical label or value.
public struct TextBuffer: Sendable {
    @usableFromInline var storage: [UInt8]
    /// Length of the text, in bytes.
    @usableFromInline var used: Int

    @inlinable public var count: Int { used }

    public init() {
        storage = []
        used = 0
    }

    public init(capacity: Int) {
        storage = [UInt8](repeating: 0, count: capacity)
        used = 0
    }

    @inlinable public var isEmpty: Bool { count == 0 }

    /// The text's bytes.
    public var bytes: ArraySlice<UInt8> { storage[0..<count] }

    @inlinable public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let n = used
        return try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<n])) }
    }

    /// The text as a `String`; allocates only when longer than a small string (15 bytes).
    public var string: String { String(decoding: storage[0..<count], as: UTF8.self) }

    /// Empties the text, keeping the memory for the next one.
    public mutating func removeAll() { used = 0 }

    /// Grows by `n` bytes that `fill` writes, every one of them (for fixed-size pieces such as
    /// hex, written faster in place than appended byte by byte).
    @inlinable public mutating func appendUninitialized(_ n: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        let start = count
        let end = start + n
        if end > storage.count { grow(to: end) }
        storage.withUnsafeMutableBufferPointer { buffer in
            fill(UnsafeMutableBufferPointer(rebasing: buffer[start..<end]))
        }
        used = end
    }

    /// Makes room for at least `n` bytes, doubling so that appends stay amortised O(1).
    @usableFromInline mutating func grow(to n: Int) {
        let target = Swift.max(n, 2 * storage.count, 64)
        storage.append(contentsOf: repeatElement(0, count: target - storage.count))
    }

    @inlinable public mutating func append(byte: UInt8) {
        if count == storage.count { grow(to: count + 1) }
        storage[used] = byte
        used += 1
    }

    @inlinable public mutating func append(bytes source: UnsafeBufferPointer<UInt8>) {
        guard let from = source.baseAddress, source.count > 0 else { return }
        appendUninitialized(source.count) { to in
            to.baseAddress?.update(from: from, count: source.count)
        }
    }

    public mutating func append(_ other: TextBuffer) {
        other.withUnsafeBufferPointer { append(bytes: $0) }
    }

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
        if n > 0 { appendUninitialized(n) { $0.update(repeating: 0x20) } }
    }

    /// Decimal, `-` for negative values, as `String(v)` writes it.
    public mutating func appendDecimal(_ v: Int) {
        if v < 0 { append(byte: 0x2D) }
        appendDecimal(magnitude: UInt64(v.magnitude))
    }

    public mutating func appendDecimal(magnitude v: UInt64) {
        var digits = 1
        var x = v
        while x >= 10 { x /= 10; digits += 1 }
        appendUninitialized(digits) { buf in
            var rest = v
            for i in stride(from: digits - 1, through: 0, by: -1) {
                buf[i] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
        }
    }

    /// `0x` and at least `width` upper-case digits, as `Hex.number` writes it.
    public mutating func appendHexNumber<T: BinaryInteger>(_ v: T, width: Int) {
        let value = UInt64(truncatingIfNeeded: v)
        var digits = 1
        while digits < 16, value >> (4 * UInt64(digits)) != 0 { digits += 1 }
        appendHexDigits(value, count: max(digits, min(width, 16)), Hex.upperDigits)
    }

    /// `0x` and exactly `width` lower-case digits, as `Hex.lowerNumber` writes it.
    public mutating func appendLowerHexNumber<T: BinaryInteger>(_ v: T, width: Int) {
        appendHexDigits(UInt64(truncatingIfNeeded: v), count: min(max(width, 1), 16), Hex.digits)
    }

    private mutating func appendHexDigits(_ value: UInt64, count n: Int, _ table: [UInt8]) {
        appendUninitialized(n + 2) { buf in
            table.withUnsafeBufferPointer { table in
                buf[0] = 0x30
                buf[1] = 0x78
                var shift = 4 * UInt64(n - 1)
                for i in 0..<n {
                    buf[2 + i] = table[Int((value >> shift) & 0xF)]
                    shift &-= 4
                }
            }
        }
    }

    /// Lower-case hex with one space between bytes, as `Hex.spaced` writes it.
    public mutating func appendSpacedHex(_ data: ArraySlice<UInt8>) {
        let n = data.count * 3 - 1
        guard n > 0 else { return }
        appendUninitialized(n) { buf in
            Hex.digits.withUnsafeBufferPointer { digits in
                var i = 0
                for b in data {
                    if i > 0 { buf[i] = 0x20; i += 1 }
                    buf[i] = digits[Int(b >> 4)]
                    buf[i + 1] = digits[Int(b & 0x0f)]
                    i += 2
                }
            }
        }
    }

    /// Lower-case hex without separators, as `Hex.string` writes it.
    public mutating func appendCompactHex(_ data: ArraySlice<UInt8>) {
        let n = data.count * 2
        guard n > 0 else { return }
        appendUninitialized(n) { buf in
            Hex.digits.withUnsafeBufferPointer { digits in
                var i = 0
                for b in data {
                    buf[i] = digits[Int(b >> 4)]
                    buf[i + 1] = digits[Int(b & 0x0f)]
                    i += 2
                }
            }
        }
    }
}

extension TextBuffer {
    /// `AA:BB:CC:DD:EE:FF` from six bytes in wire order, as `BDAddress.string` writes it,
    /// without making a `BDAddress` (which copies the bytes into an array of its own).
    public mutating func appendAddress(wireOrder b: ArraySlice<UInt8>) {
        appendUninitialized(17) { buf in
            Hex.upperDigits.withUnsafeBufferPointer { digits in
                var o = 0
                for i in stride(from: 5, through: 0, by: -1) {
                    let v = i < b.count ? b[b.startIndex + i] : 0
                    buf[o] = digits[Int(v >> 4)]
                    buf[o + 1] = digits[Int(v & 0xF)]
                    if i > 0 { buf[o + 2] = 0x3A }
                    o += i > 0 ? 3 : 2
                }
            }
        }
    }
}
