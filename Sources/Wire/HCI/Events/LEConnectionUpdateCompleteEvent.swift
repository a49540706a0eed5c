/// HCI_LE_Connection_Update_Complete (Vol 4, Part E, §7.7.65.3): new connection parameters
/// are in use (after either side asked for them).
public struct LEConnectionUpdateCompleteEvent: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    /// In units of 1.25 ms.
    public var connectionInterval: UInt16
    public var peripheralLatency: UInt16
    /// In units of 10 ms.
    public var supervisionTimeout: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16, connectionInterval: UInt16,
                peripheralLatency: UInt16 = 0, supervisionTimeout: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = try r.eventStatus()
        connectionHandle = try r.eventConnectionHandle()
        connectionInterval = try r.u16("Connection_Interval")
        peripheralLatency = try r.u16("Peripheral_Latency")
        supervisionTimeout = try r.u16("Supervision_Timeout")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u16(connectionInterval)
        w.u16(peripheralLatency)
        w.u16(supervisionTimeout)
    }

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " interval " + EventFormat.milliseconds1_25(connectionInterval)
            + " latency " + String(peripheralLatency) + " timeout " + String(Int(supervisionTimeout) * 10) + " ms"
            + (status.isSuccess ? "" : " status " + statusText(status))
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Status", statusText(status))
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        LEConnectionText.describeParameters(into: &f, interval: connectionInterval, latency: peripheralLatency,
                                            timeout: supervisionTimeout)
    }
}
