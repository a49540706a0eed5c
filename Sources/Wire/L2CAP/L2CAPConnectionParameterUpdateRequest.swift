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
}
