/// HCI_LE_Connection_Update (Core Spec v5.4 Vol 4, Part E, §7.8.18): asks for new connection
/// parameters on a link. Answered with Command Status; LE Connection Update Complete follows.
/// Units: intervals 1.25 ms, supervision timeout 10 ms, CE lengths 0.625 ms.
public struct LEConnectionUpdate: HCICommand, Hashable {
    public typealias ReturnParameters = NoReturnParameters
    public static let opcode = HCIOpcode.leConnectionUpdate
    public static let completesWithStatus = true

    public var connectionHandle: UInt16
    public var connectionIntervalMin: UInt16
    public var connectionIntervalMax: UInt16
    public var maxLatency: UInt16
    public var supervisionTimeout: UInt16
    public var minCELength: UInt16
    public var maxCELength: UInt16

    public init(connectionHandle: UInt16, connectionIntervalMin: UInt16, connectionIntervalMax: UInt16,
                maxLatency: UInt16, supervisionTimeout: UInt16, minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
        self.connectionHandle = connectionHandle
        self.connectionIntervalMin = connectionIntervalMin
        self.connectionIntervalMax = connectionIntervalMax
        self.maxLatency = maxLatency
        self.supervisionTimeout = supervisionTimeout
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        connectionHandle = try r.u16("Connection_Handle")
        connectionIntervalMin = try r.u16("Connection_Interval_Min")
        connectionIntervalMax = try r.u16("Connection_Interval_Max")
        maxLatency = try r.u16("Max_Latency")
        supervisionTimeout = try r.u16("Supervision_Timeout")
        minCELength = try r.u16("Min_CE_Length")
        maxCELength = try r.u16("Max_CE_Length")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u16(connectionIntervalMin)
        w.u16(connectionIntervalMax)
        w.u16(maxLatency)
        w.u16(supervisionTimeout)
        w.u16(minCELength)
        w.u16(maxCELength)
    }

    public var summary: String {
        "handle " + HCICommandFormat.handle(connectionHandle)
            + " interval " + HCICommandFormat.milliseconds(Int(connectionIntervalMin) * HCICommandFormat.unit1_25ms)
            + "–" + HCICommandFormat.milliseconds(Int(connectionIntervalMax) * HCICommandFormat.unit1_25ms)
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Handle", HCICommandFormat.handle(connectionHandle))
        HCICommandFormat.describeConnectionParameters(
            into: &fields, intervalMin: connectionIntervalMin, intervalMax: connectionIntervalMax,
            latency: maxLatency, supervisionTimeout: supervisionTimeout,
            minCELength: minCELength, maxCELength: maxCELength)
    }
}
