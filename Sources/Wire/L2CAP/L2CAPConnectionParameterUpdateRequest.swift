/// L2CAP_CONNECTION_PARAMETER_UPDATE_REQ data (Core Spec v5.4 Vol 3, Part A, §4.20): what a
/// peripheral asks the central to apply with LE Connection Update. Intervals are in 1.25 ms
/// units, the timeout in 10 ms units, as in the HCI command they feed.
public struct L2CAPConnectionParameterUpdateRequest: WireCodable, Hashable {
    public var intervalMin: UInt16
    public var intervalMax: UInt16
    public var peripheralLatency: UInt16
    public var timeoutMultiplier: UInt16

    public init(intervalMin: UInt16, intervalMax: UInt16, peripheralLatency: UInt16, timeoutMultiplier: UInt16) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.peripheralLatency = peripheralLatency
        self.timeoutMultiplier = timeoutMultiplier
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        intervalMin = try reader.u16("Interval Min")
        intervalMax = try reader.u16("Interval Max")
        peripheralLatency = try reader.u16("Peripheral Latency")
        timeoutMultiplier = try reader.u16("Timeout Multiplier")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(intervalMin)
        writer.u16(intervalMax)
        writer.u16(peripheralLatency)
        writer.u16(timeoutMultiplier)
    }

    /// Whether the values lie in the ranges §4.20 allows (interval 7.5 ms–4 s with min ≤ max,
    /// latency below 500, timeout 100 ms–32 s and longer than the largest interval times
    /// (1 + latency) twice over), which a central checks before accepting.
    public var isWithinSpecifiedRanges: Bool {
        guard (6...3200).contains(intervalMin), (6...3200).contains(intervalMax), intervalMin <= intervalMax,
              peripheralLatency < 500, (10...3200).contains(timeoutMultiplier) else { return false }
        // Timeout (10 ms units) × 10 > (1 + latency) × interval max (1.25 ms units) × 1.25 × 2.
        let timeoutMicroseconds = Int(timeoutMultiplier) * 10_000
        let needed = (1 + Int(peripheralLatency)) * Int(intervalMax) * 1_250 * 2
        return timeoutMicroseconds > needed
    }
}
