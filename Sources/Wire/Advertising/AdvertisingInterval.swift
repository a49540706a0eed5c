/// Advertising Interval (0x1A, two octets) or Advertising Interval - long (0x2F, three or four
/// octets), in units of 0.625 ms (Core Specification Supplement Part A §1.15).
public struct AdvertisingInterval: Hashable, Sendable, CustomStringConvertible {
    public var units: UInt32
    /// Octets on the wire: 2 for the short type, 3 or 4 for the long one.
    public var byteCount: Int

    /// `byteCount` is clamped to 2…4; the value is cut to what that many octets hold.
    public init(units: UInt32, byteCount: Int = 2) {
        let n = min(max(byteCount, 2), 4)
        self.byteCount = n
        self.units = n == 4 ? units : units & ((1 << UInt32(8 * n)) - 1)
    }

    public var type: ADType { byteCount == 2 ? .advertisingInterval : .advertisingIntervalLong }

    public var milliseconds: Double { Double(units) * 0.625 }

    public var description: String { formatMilliseconds(milliseconds) + " (" + Hex.number(units, width: 2 * byteCount) + ")" }

    static func decode(type: ADType, data: ArraySlice<UInt8>) throws(WireError) -> AdvertisingInterval {
        var r = ByteReader(data)
        if type == .advertisingInterval {
            return AdvertisingInterval(units: UInt32(try r.u16("Advertising Interval")), byteCount: 2)
        }
        if data.count >= 4 { return AdvertisingInterval(units: try r.u32("Advertising Interval"), byteCount: 4) }
        return AdvertisingInterval(units: try r.u24("Advertising Interval"), byteCount: 3)
    }

    func encodeData(into w: inout ByteWriter) {
        switch byteCount {
        case 2: w.u16(UInt16(truncatingIfNeeded: units))
        case 3: w.u24(units)
        default: w.u32(units)
        }
    }
}
