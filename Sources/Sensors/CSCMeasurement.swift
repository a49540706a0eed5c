import Wire

/// CSC Measurement, 0x2A5B (Cycling Speed and Cadence Service v1.0 §3.1; GATT Specification
/// Supplement).
///
/// Layout: Flags (uint8); if bit 0, Cumulative Wheel Revolutions (uint32) and Last Wheel Event
/// Time (uint16, 1/1024 s); if bit 1, Cumulative Crank Revolutions (uint16) and Last Crank Event
/// Time (uint16, 1/1024 s). Bits 2–7 are reserved and kept as received. The counters are
/// cumulative and the event times roll over every 64 s, so speed and cadence come from two
/// measurements (`CSCRates`), not from one.
public struct CSCMeasurement: SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.cscMeasurement

    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: Wheel Revolution Data is present.
        public static let wheelRevolutionDataPresent = Flags(rawValue: 1 << 0)
        /// Bit 1: Crank Revolution Data is present.
        public static let crankRevolutionDataPresent = Flags(rawValue: 1 << 1)
    }

    /// Cumulative revolutions and the time of the last one, in 1/1024 s (rolls over).
    public struct WheelData: Sendable, Hashable {
        public var cumulativeRevolutions: UInt32
        public var lastEventTime: UInt16
        public init(cumulativeRevolutions: UInt32, lastEventTime: UInt16) {
            self.cumulativeRevolutions = cumulativeRevolutions
            self.lastEventTime = lastEventTime
        }
    }

    public struct CrankData: Sendable, Hashable {
        public var cumulativeRevolutions: UInt16
        public var lastEventTime: UInt16
        public init(cumulativeRevolutions: UInt16, lastEventTime: UInt16) {
            self.cumulativeRevolutions = cumulativeRevolutions
            self.lastEventTime = lastEventTime
        }
    }

    public var flags: Flags
    public var wheel: WheelData?
    public var crank: CrankData?

    public init(wheel: WheelData? = nil, crank: CrankData? = nil) {
        var f: Flags = []
        if wheel != nil { f.insert(.wheelRevolutionDataPresent) }
        if crank != nil { f.insert(.crankRevolutionDataPresent) }
        flags = f
        self.wheel = wheel
        self.crank = crank
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        flags = Flags(rawValue: try reader.u8("Flags"))
        if flags.contains(.wheelRevolutionDataPresent) {
            wheel = WheelData(cumulativeRevolutions: try reader.u32("Cumulative Wheel Revolutions"),
                              lastEventTime: try reader.u16("Last Wheel Event Time"))
        } else {
            wheel = nil
        }
        if flags.contains(.crankRevolutionDataPresent) {
            crank = CrankData(cumulativeRevolutions: try reader.u16("Cumulative Crank Revolutions"),
                              lastEventTime: try reader.u16("Last Crank Event Time"))
        } else {
            crank = nil
        }
    }

    public func encode(into writer: inout ByteWriter) {
        var f = flags
        if wheel != nil { f.insert(.wheelRevolutionDataPresent) } else { f.remove(.wheelRevolutionDataPresent) }
        if crank != nil { f.insert(.crankRevolutionDataPresent) } else { f.remove(.crankRevolutionDataPresent) }
        writer.u8(f.rawValue)
        if let w = wheel {
            writer.u32(w.cumulativeRevolutions)
            writer.u16(w.lastEventTime)
        }
        if let c = crank {
            writer.u16(c.cumulativeRevolutions)
            writer.u16(c.lastEventTime)
        }
    }
}

extension CSCMeasurement: FieldDescribing {
    /// E.g. "wheel 1234 rev @ 12.500 s, crank 321 rev @ 12.250 s".
    public var summary: String {
        var parts: [String] = []
        if let w = wheel { parts.append("wheel \(w.cumulativeRevolutions) rev @ " + Self.seconds(w.lastEventTime)) }
        if let c = crank { parts.append("crank \(c.cumulativeRevolutions) rev @ " + Self.seconds(c.lastEventTime)) }
        return parts.isEmpty ? "no revolution data" : parts.joined(separator: ", ")
    }

    /// An event time in 1/1024 s as seconds to the millisecond.
    static func seconds(_ time: UInt16) -> String {
        FixedPoint.format(FixedPoint.rounded(Int(time) * 1000, 1024), decimals: 3) + " s"
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Flags", Hex.number(flags.rawValue, width: 2))
        if let w = wheel {
            fields.add("Cumulative Wheel Revolutions", "\(w.cumulativeRevolutions)")
            fields.add("Last Wheel Event Time", "\(w.lastEventTime)/1024 s (" + Self.seconds(w.lastEventTime) + ")")
        }
        if let c = crank {
            fields.add("Cumulative Crank Revolutions", "\(c.cumulativeRevolutions)")
            fields.add("Last Crank Event Time", "\(c.lastEventTime)/1024 s (" + Self.seconds(c.lastEventTime) + ")")
        }
    }
}
