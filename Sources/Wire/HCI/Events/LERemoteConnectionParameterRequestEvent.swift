/// HCI_LE_Remote_Connection_Parameter_Request (Vol 4, Part E, §7.7.65.6): the peer asks for
/// new connection parameters through the link layer; when this event is unmasked the host
/// must answer with the Reply or Negative Reply command, or the procedure times out.
public struct LERemoteConnectionParameterRequestEvent: WireCodable, FieldDescribing, Hashable {
    public var connectionHandle: UInt16
    /// In units of 1.25 ms.
    public var intervalMin: UInt16
    /// In units of 1.25 ms.
    public var intervalMax: UInt16
    public var maxLatency: UInt16
    /// Supervision timeout in units of 10 ms.
    public var timeout: UInt16

    public init(connectionHandle: UInt16, intervalMin: UInt16, intervalMax: UInt16, maxLatency: UInt16,
                timeout: UInt16) {
        self.connectionHandle = connectionHandle
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.maxLatency = maxLatency
        self.timeout = timeout
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        connectionHandle = try r.eventConnectionHandle()
        intervalMin = try r.u16("Interval_Min")
        intervalMax = try r.u16("Interval_Max")
        maxLatency = try r.u16("Max_Latency")
        timeout = try r.u16("Timeout")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u16(intervalMin)
        w.u16(intervalMax)
        w.u16(maxLatency)
        w.u16(timeout)
    }

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " interval " + EventFormat.milliseconds1_25(intervalMin)
            + "–" + EventFormat.milliseconds1_25(intervalMax) + " latency " + String(maxLatency)
            + " timeout " + String(Int(timeout) * 10) + " ms"
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("Interval min", EventFormat.units1_25ms(intervalMin))
        f.add("Interval max", EventFormat.units1_25ms(intervalMax))
        f.add("Max latency", EventFormat.count16(maxLatency))
        f.add("Timeout", EventFormat.units10ms(timeout))
    }
}
