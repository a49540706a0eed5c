import Wire

/// RSC Measurement, 0x2A53 (RSCS v1.0 §3.1; GATT Specification Supplement).
///
/// Layout: Flags (uint8), Instantaneous Speed (uint16, 1/256 m/s), Instantaneous Cadence (uint8,
/// 1/min), Instantaneous Stride Length (uint16, 1/100 m, if bit 0), Total Distance (uint32,
/// 1/10 m, if bit 1). Raw fields are kept as sent; the converted values are computed on demand.
public struct RSCMeasurement: SensorCharacteristic, Sendable, Equatable {
    public static let uuid = SensorCharacteristicUUID.rscMeasurement

    /// Flags field bits (RSCS v1.0 §3.1.1.1). Bits 3–7 are reserved and kept as received.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: Instantaneous Stride Length is present.
        public static let instantaneousStrideLengthPresent = Flags(rawValue: 1 << 0)
        /// Bit 1: Total Distance is present.
        public static let totalDistancePresent = Flags(rawValue: 1 << 1)
        /// Bit 2: the user is running (else walking).
        public static let running = Flags(rawValue: 1 << 2)
    }

    /// Flags as received. `encode(into:)` sets the presence bits from the optional fields.
    public var flags: Flags
    /// Instantaneous Speed in 1/256 m/s.
    public var speedRaw: UInt16
    /// Instantaneous Cadence in steps per minute.
    public var cadence: UInt8
    /// Instantaneous Stride Length in 1/100 m.
    public var strideLengthRaw: UInt16?
    /// Total Distance in 1/10 m.
    public var totalDistanceRaw: UInt32?

    public init(speedRaw: UInt16, cadence: UInt8, strideLengthRaw: UInt16? = nil,
                totalDistanceRaw: UInt32? = nil, isRunning: Bool = false) {
        var f: Flags = isRunning ? [.running] : []
        if strideLengthRaw != nil { f.insert(.instantaneousStrideLengthPresent) }
        if totalDistanceRaw != nil { f.insert(.totalDistancePresent) }
        flags = f
        self.speedRaw = speedRaw
        self.cadence = cadence
        self.strideLengthRaw = strideLengthRaw
        self.totalDistanceRaw = totalDistanceRaw
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        flags = Flags(rawValue: try reader.u8("Flags"))
        speedRaw = try reader.u16("Instantaneous Speed")
        cadence = try reader.u8("Instantaneous Cadence")
        strideLengthRaw = flags.contains(.instantaneousStrideLengthPresent)
            ? try reader.u16("Instantaneous Stride Length") : nil
        totalDistanceRaw = flags.contains(.totalDistancePresent) ? try reader.u32("Total Distance") : nil
    }

    public func encode(into writer: inout ByteWriter) {
        var f = flags
        if strideLengthRaw != nil { f.insert(.instantaneousStrideLengthPresent) } else { f.remove(.instantaneousStrideLengthPresent) }
        if totalDistanceRaw != nil { f.insert(.totalDistancePresent) } else { f.remove(.totalDistancePresent) }
        writer.u8(f.rawValue)
        writer.u16(speedRaw)
        writer.u8(cadence)
        if let s = strideLengthRaw { writer.u16(s) }
        if let d = totalDistanceRaw { writer.u32(d) }
    }

    public var isRunning: Bool { flags.contains(.running) }

    /// Speed in m/s.
    public var speedMetersPerSecond: Double { Double(speedRaw) / 256 }

    /// Pace in minutes per kilometre; nil when standing still (the pace would be infinite).
    public var paceMinutesPerKilometer: Double? {
        speedRaw == 0 ? nil : 1000 / speedMetersPerSecond / 60
    }

    /// Stride length in metres.
    public var strideLengthMeters: Double? { strideLengthRaw.map { Double($0) / 100 } }

    /// Total distance in metres.
    public var totalDistanceMeters: Double? { totalDistanceRaw.map { Double($0) / 10 } }

    /// Pace as "m:ss" min/km, rounded to the second; nil at zero speed.
    public var paceText: String? {
        guard speedRaw > 0 else { return nil }
        // 1000 m ÷ (raw/256 m/s) = 256000/raw seconds per kilometre.
        let seconds = FixedPoint.rounded(256_000, Int(speedRaw))
        let ss = seconds % 60
        return "\(seconds / 60):" + (ss < 10 ? "0" : "") + String(ss)
    }

    /// Speed in m/s to two decimals, exact from the raw value.
    var speedText: String { FixedPoint.format(FixedPoint.rounded(Int(speedRaw) * 100, 256), decimals: 2) }
}

extension RSCMeasurement: FieldDescribing {
    /// E.g. "3.21 m/s (5:11 min/km), 172 spm, stride 1.12 m, 1234.5 m".
    public var summary: String {
        var s = speedText + " m/s"
        if let pace = paceText { s += " (" + pace + " min/km)" }
        s += ", \(cadence) spm"
        if let stride = strideLengthRaw { s += ", stride " + FixedPoint.format(Int(stride), decimals: 2) + " m" }
        if let distance = totalDistanceRaw { s += ", " + FixedPoint.format(Int(distance), decimals: 1) + " m" }
        return s
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Flags", Hex.number(flags.rawValue, width: 2))
        fields.add("Motion", isRunning ? "running" : "walking")
        fields.add("Instantaneous speed", "\(speedRaw)/256 m/s (\(speedText) m/s)")
        fields.add("Pace", paceText.map { $0 + " min/km" } ?? "— (standing)")
        fields.add("Instantaneous cadence", "\(cadence) steps/min")
        if let stride = strideLengthRaw {
            fields.add("Instantaneous stride length", FixedPoint.format(Int(stride), decimals: 2) + " m")
        }
        if let distance = totalDistanceRaw {
            fields.add("Total distance", FixedPoint.format(Int(distance), decimals: 1) + " m")
        }
    }
}
