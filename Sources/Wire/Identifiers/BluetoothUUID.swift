/// A Bluetooth UUID of any width, kept as its 128-bit value so that 0x180D and
/// 0000180D-0000-1000-8000-00805F9B34FB compare equal (Core Spec Vol 3, Part B, §2.5.1).
public struct BluetoothUUID: Hashable, Sendable, Comparable {
    /// Most significant 64 bits, as written first in the text form.
    public let high: UInt64
    /// Least significant 64 bits.
    public let low: UInt64

    /// Bluetooth Base UUID 00000000-0000-1000-8000-00805F9B34FB.
    public static let baseHigh: UInt64 = 0x0000_0000_0000_1000
    public static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public init(_ short: UInt16) {
        self.init(high: BluetoothUUID.baseHigh | UInt64(short) << 32, low: BluetoothUUID.baseLow)
    }

    public init(uuid32 value: UInt32) {
        self.init(high: BluetoothUUID.baseHigh | UInt64(value) << 32, low: BluetoothUUID.baseLow)
    }

    /// From little-endian wire bytes of length 2, 4 or 16; nil for any other length.
    public init?(littleEndian bytes: ArraySlice<UInt8>) {
        let b = bytes.startIndex
        switch bytes.count {
        case 2:
            self.init(UInt16(bytes[b]) | UInt16(bytes[b + 1]) << 8)
        case 4:
            var v: UInt32 = 0
            for i in 0..<4 { v |= UInt32(bytes[b + i]) << (8 * UInt32(i)) }
            self.init(uuid32: v)
        case 16:
            var lo: UInt64 = 0, hi: UInt64 = 0
            for i in 0..<8 { lo |= UInt64(bytes[b + i]) << (8 * UInt64(i)) }
            for i in 0..<8 { hi |= UInt64(bytes[b + 8 + i]) << (8 * UInt64(i)) }
            self.init(high: hi, low: lo)
        default:
            return nil
        }
    }

    /// Whether the value lies on the Bluetooth Base UUID, so it has a 32-bit (maybe 16-bit) alias.
    public var isBased: Bool {
        low == BluetoothUUID.baseLow && high & 0xFFFF_FFFF == BluetoothUUID.baseHigh
    }

    /// The 16-bit alias when there is one.
    public var uuid16: UInt16? {
        guard isBased, high >> 48 == 0 else { return nil }
        return UInt16(truncatingIfNeeded: high >> 32)
    }

    /// The 32-bit alias when there is one.
    public var uuid32: UInt32? {
        guard isBased else { return nil }
        return UInt32(truncatingIfNeeded: high >> 32)
    }

    /// Shortest form allowed in ATT PDUs: 2 bytes for a 16-bit alias, 16 otherwise (ATT has no
    /// 32-bit form; Core Spec Vol 3, Part F, §3.2.1).
    public var attBytes: [UInt8] {
        if let s = uuid16 { return [UInt8(truncatingIfNeeded: s), UInt8(truncatingIfNeeded: s >> 8)] }
        return littleEndianBytes128
    }

    public var littleEndianBytes128: [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 { out[i] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(i))) }
        for i in 0..<8 { out[8 + i] = UInt8(truncatingIfNeeded: high >> (8 * UInt64(i))) }
        return out
    }

    /// Canonical text: `180D` for a 16-bit alias, `0000FEAA`-style 8 digits for a 32-bit one,
    /// the full upper-case 8-4-4-4-12 form otherwise.
    public var string: String {
        if let s = uuid16 { return Hex.number(s, width: 4).dropFirst(2).description }
        if let s = uuid32 { return Hex.number(s, width: 8).dropFirst(2).description }
        return fullString
    }

    public var fullString: String {
        func h(_ v: UInt64, _ digits: Int) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return String(repeating: "0", count: digits - s.count) + s
        }
        return h(high >> 32, 8) + "-" + h((high >> 16) & 0xFFFF, 4) + "-" + h(high & 0xFFFF, 4) + "-"
            + h(low >> 48, 4) + "-" + h(low & 0xFFFF_FFFF_FFFF, 12)
    }

    /// Parses `180D`, `0x180D`, `0000FEAA` or the 36-character form; nil otherwise.
    public init?(string text: String) {
        var t = Substring(text)
        if t.hasPrefix("0x") || t.hasPrefix("0X") { t = t.dropFirst(2) }
        if t.count == 4, let v = UInt16(t, radix: 16) { self.init(v); return }
        if t.count == 8, let v = UInt32(t, radix: 16) { self.init(uuid32: v); return }
        let parts = t.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 5, parts.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
        guard let a = UInt64(parts[0], radix: 16), let b = UInt64(parts[1], radix: 16),
              let c = UInt64(parts[2], radix: 16), let d = UInt64(parts[3], radix: 16),
              let e = UInt64(parts[4], radix: 16) else { return nil }
        self.init(high: a << 32 | b << 16 | c, low: d << 48 | e)
    }

    public static func < (l: BluetoothUUID, r: BluetoothUUID) -> Bool {
        (l.high, l.low) < (r.high, r.low)
    }
}

extension BluetoothUUID: CustomStringConvertible {
    public var description: String { string }
}
