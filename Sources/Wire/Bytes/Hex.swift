/// Hex text for bytes: compact (`"0a1b"`), spaced (`"0a 1b"`) and parsed back.
public enum Hex {
    @usableFromInline static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lower-case hex without separators.
    @inlinable public static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        // Inlinable so that callers in other modules get the contiguous path: the generic
        // body, unspecialized, costs thousands of instructions per byte string.
        if let s = bytes.withContiguousStorageIfAvailable({ string(contiguous: $0) }) { return s }
        return Array(bytes).withUnsafeBufferPointer { string(contiguous: $0) }
    }

    @usableFromInline static func string(contiguous bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buf in
            HexPairs.write(bytes, separator: nil, HexPairs.lower, to: buf)
        }
    }

    /// Lower-case hex with one space between bytes.
    @inlinable public static func spaced<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let s = bytes.withContiguousStorageIfAvailable({ spaced(contiguous: $0) }) { return s }
        return Array(bytes).withUnsafeBufferPointer { spaced(contiguous: $0) }
    }

    @usableFromInline static func spaced(contiguous bytes: UnsafeBufferPointer<UInt8>) -> String {
        if bytes.isEmpty { return "" }
        // One byte of room more than the text: the last pair's separator is written too.
        return String(unsafeUninitializedCapacity: bytes.count * 3) { buf in
            HexPairs.write(bytes, separator: 0x20, HexPairs.lower, to: buf)
        }
    }

    /// Parses hex, ignoring spaces, colons and an optional `0x`; nil on any other character or
    /// an odd number of digits.
    public static func parse(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var high: UInt8? = nil
        var utf8 = Array(text.utf8)[...]
        if utf8.count >= 2, utf8[utf8.startIndex] == 0x30, utf8[utf8.startIndex + 1] | 0x20 == 0x78 {
            utf8 = utf8.dropFirst(2)
        }
        for c in utf8 {
            let v: UInt8
            switch c {
            case 0x30...0x39: v = c - 0x30
            case 0x61...0x66: v = c - 0x61 + 10
            case 0x41...0x46: v = c - 0x41 + 10
            case 0x20, 0x3a, 0x2d: continue
            default: return nil
            }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        return high == nil ? out : nil
    }

    @usableFromInline static let upperDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `0x` and at least `width` upper-case hex digits, e.g. `number(0x1a, width: 4)` → `0x001A`.
    /// Built byte by byte: the decoder calls this for nearly every field it shows.
    public static func number<T: BinaryInteger>(_ v: T, width: Int) -> String {
        let value = UInt64(truncatingIfNeeded: v)
        var digits = 1
        while digits < 16, value >> (4 * UInt64(digits)) != 0 { digits += 1 }
        let n = max(digits, min(width, 16))
        return String(unsafeUninitializedCapacity: n + 2) { buf in
            buf[0] = 0x30
            buf[1] = 0x78
            for i in 0..<n {
                buf[2 + i] = upperDigits[Int((value >> (4 * UInt64(n - 1 - i))) & 0xF)]
            }
            return n + 2
        }
    }

    /// `0x` and exactly `width` lower-case hex digits (`0x%04x`), as Wireshark and btmon show handles.
    public static func lowerNumber<T: BinaryInteger>(_ v: T, width: Int) -> String {
        let value = UInt64(truncatingIfNeeded: v)
        let n = min(max(width, 1), 16)
        return String(unsafeUninitializedCapacity: n + 2) { buf in
            buf[0] = 0x30
            buf[1] = 0x78
            for i in 0..<n {
                buf[2 + i] = digits[Int((value >> (4 * UInt64(n - 1 - i))) & 0xF)]
            }
            return n + 2
        }
    }
}
