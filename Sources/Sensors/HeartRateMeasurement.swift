import Wire

/// Heart Rate Measurement, 0x2A37 (HRS v1.0 §3.1; GATT Specification Supplement §3.106).
///
/// Layout: Flags (uint8), Heart Rate Measurement Value (uint8 or uint16 by flag bit 0), Energy
/// Expended (uint16 kJ, if bit 3), RR-Interval (uint16 each, 1/1024 s, one or more, if bit 4).
/// Decoding keeps the RR-Intervals as a view on the input bytes, so a notification decodes
/// without any allocation.
public struct HeartRateMeasurement: SensorCharacteristic, Sendable, Equatable {
    public static let uuid = SensorCharacteristicUUID.heartRateMeasurement

    /// Flags field bits (HRS v1.0 §3.1.1.1). Bits 5–7 are reserved for future use and kept as
    /// received.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: the value is a uint16 (else uint8).
        public static let valueFormatUInt16 = Flags(rawValue: 1 << 0)
        /// Bit 1: sensor contact detected (meaningful only with bit 2).
        public static let sensorContactDetected = Flags(rawValue: 1 << 1)
        /// Bit 2: the sensor reports contact.
        public static let sensorContactSupported = Flags(rawValue: 1 << 2)
        /// Bit 3: the Energy Expended field is present.
        public static let energyExpendedPresent = Flags(rawValue: 1 << 3)
        /// Bit 4: one or more RR-Interval values are present.
        public static let rrIntervalPresent = Flags(rawValue: 1 << 4)
    }

    /// Flags as received (or as built). `encode(into:)` sets the format and presence bits from
    /// the values, so a value built by hand cannot contradict its flags on the wire.
    public var flags: Flags
    /// Beats per minute.
    public var heartRate: UInt16
    /// Accumulated energy in kilojoules since the last reset; 0xFFFF means "at least 65535".
    public var energyExpended: UInt16?
    /// Beat-to-beat intervals in 1/1024 s, oldest first.
    public var rrIntervals: RRIntervals

    /// Builds a measurement; the format bit is chosen from the value unless `uint16Format` forces it.
    public init(heartRate: UInt16,
                sensorContact: SensorContactStatus = .notSupported,
                energyExpended: UInt16? = nil,
                rrIntervals: [UInt16] = [],
                uint16Format: Bool = false) {
        var f = sensorContact.flags
        if uint16Format || heartRate > 0xFF { f.insert(.valueFormatUInt16) }
        if energyExpended != nil { f.insert(.energyExpendedPresent) }
        if !rrIntervals.isEmpty { f.insert(.rrIntervalPresent) }
        flags = f
        self.heartRate = heartRate
        self.energyExpended = energyExpended
        self.rrIntervals = RRIntervals(rrIntervals)
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        flags = Flags(rawValue: try reader.u8("Flags"))
        if flags.contains(.valueFormatUInt16) {
            heartRate = try reader.u16("Heart Rate Measurement Value")
        } else {
            heartRate = UInt16(try reader.u8("Heart Rate Measurement Value"))
        }
        energyExpended = flags.contains(.energyExpendedPresent) ? try reader.u16("Energy Expended") : nil
        if flags.contains(.rrIntervalPresent) {
            let rest = reader.rest()
            // The flag promises at least one interval, and intervals fill the rest of the value.
            if rest.count < 2 || rest.count % 2 != 0 {
                throw WireError.truncated(field: "RR-Interval", needed: 2, available: rest.count % 2 == 0 ? 0 : 1)
            }
            rrIntervals = RRIntervals(bytes: rest)
        } else {
            rrIntervals = RRIntervals(bytes: [])
        }
    }

    public func encode(into writer: inout ByteWriter) {
        var f = flags
        let wide = f.contains(.valueFormatUInt16) || heartRate > 0xFF
        if wide { f.insert(.valueFormatUInt16) }
        if energyExpended != nil { f.insert(.energyExpendedPresent) } else { f.remove(.energyExpendedPresent) }
        if !rrIntervals.isEmpty { f.insert(.rrIntervalPresent) } else { f.remove(.rrIntervalPresent) }
        writer.u8(f.rawValue)
        if wide { writer.u16(heartRate) } else { writer.u8(UInt8(truncatingIfNeeded: heartRate)) }
        if let e = energyExpended { writer.u16(e) }
        for rr in rrIntervals { writer.u16(rr) }
    }

    public var sensorContact: SensorContactStatus { SensorContactStatus(flags) }

    /// Whether the value came as a uint16.
    public var usesUInt16Format: Bool { flags.contains(.valueFormatUInt16) }
}

/// Sensor Contact Status bits 1–2 of the Heart Rate Measurement flags (HRS v1.0 §3.1.1.3):
/// 0 and 1 mean "not supported", 2 "supported, not detected", 3 "supported and detected".
public enum SensorContactStatus: Sendable, Hashable {
    case notSupported
    case notDetected
    case detected

    init(_ flags: HeartRateMeasurement.Flags) {
        if !flags.contains(.sensorContactSupported) { self = .notSupported }
        else if flags.contains(.sensorContactDetected) { self = .detected }
        else { self = .notDetected }
    }

    var flags: HeartRateMeasurement.Flags {
        switch self {
        case .notSupported: return []
        case .notDetected: return [.sensorContactSupported]
        case .detected: return [.sensorContactSupported, .sensorContactDetected]
        }
    }

    public var name: String {
        switch self {
        case .notSupported: return "not supported"
        case .notDetected: return "not detected"
        case .detected: return "detected"
        }
    }
}

/// RR-Interval values of one measurement, read in place from the notification bytes.
///
/// A chest strap sends up to nine intervals per notification at every beat; keeping them as a
/// slice of the received value (no array) keeps the notification path free of allocations.
public struct RRIntervals: RandomAccessCollection, Sendable, Equatable {
    /// The raw little-endian uint16 values (an even number of bytes).
    public let bytes: ArraySlice<UInt8>

    /// From raw bytes; a trailing odd byte is not part of any interval and is ignored.
    public init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes.count % 2 == 0 ? bytes : bytes.dropLast()
    }

    /// From values in 1/1024 s (for building values; this one allocates).
    public init(_ values: [UInt16]) {
        var w = ByteWriter(capacity: values.count * 2)
        for v in values { w.u16(v) }
        bytes = w.bytes[...]
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { bytes.count / 2 }

    /// The interval in 1/1024 s.
    public subscript(position: Int) -> UInt16 {
        let i = bytes.startIndex + 2 * position
        return UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
    }

    /// Raw values in 1/1024 s, as an array for display.
    public var values: [UInt16] { Array(self) }

    /// Intervals in milliseconds (raw × 1000 / 1024), for display.
    public var milliseconds: [Double] { map { Double($0) * 1000 / 1024 } }

    public static func == (lhs: RRIntervals, rhs: RRIntervals) -> Bool {
        lhs.bytes.elementsEqual(rhs.bytes)
    }

    /// Milliseconds rounded to a whole number, as shown in summaries.
    static func roundedMilliseconds(_ raw: UInt16) -> Int {
        FixedPoint.rounded(Int(raw) * 1000, 1024)
    }
}

extension HeartRateMeasurement: FieldDescribing {
    /// E.g. "72 bpm, RR 812 ms", "150 bpm, 1234 kJ, RR 400, 398 ms", "0 bpm (no contact)".
    public var summary: String {
        var s = "\(heartRate) bpm"
        if sensorContact == .notDetected { s += " (no contact)" }
        if let e = energyExpended { s += ", \(e) kJ" }
        if !rrIntervals.isEmpty {
            s += ", RR " + rrIntervals.map { String(RRIntervals.roundedMilliseconds($0)) }.joined(separator: ", ") + " ms"
        }
        return s
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Flags", Hex.number(flags.rawValue, width: 2))
        fields.add("Value format", usesUInt16Format ? "uint16" : "uint8")
        fields.add("Sensor contact", sensorContact.name)
        fields.add("Heart rate", "\(heartRate) bpm")
        if let e = energyExpended { fields.add("Energy expended", "\(e) kJ") }
        if !rrIntervals.isEmpty {
            fields.nested("RR-Intervals", "\(rrIntervals.count)") { list in
                for rr in rrIntervals {
                    // raw × 1000/1024 ms = raw × 125/128 ms, shown to 0.001 ms (exact to 1/128).
                    let micro = FixedPoint.rounded(Int(rr) * 125_000, 128)
                    list.add("RR-Interval", "\(rr)/1024 s (\(FixedPoint.format(micro, decimals: 3)) ms)")
                }
            }
        }
    }
}
