/// HCI_LE_Data_Length_Change (Vol 4, Part E, §7.7.65.7): the largest link-layer payloads
/// and their air times now in use in each direction.
public struct LEDataLengthChangeEvent: WireCodable, FieldDescribing, Hashable {
    public var connectionHandle: UInt16
    public var maxTxOctets: UInt16
    /// Microseconds.
    public var maxTxTime: UInt16
    public var maxRxOctets: UInt16
    /// Microseconds.
    public var maxRxTime: UInt16

    public init(connectionHandle: UInt16, maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16,
                maxRxTime: UInt16) {
        self.connectionHandle = connectionHandle
        self.maxTxOctets = maxTxOctets
        self.maxTxTime = maxTxTime
        self.maxRxOctets = maxRxOctets
        self.maxRxTime = maxRxTime
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        connectionHandle = try r.eventConnectionHandle()
        maxTxOctets = try r.u16("Max_TX_Octets")
        maxTxTime = try r.u16("Max_TX_Time")
        maxRxOctets = try r.u16("Max_RX_Octets")
        maxRxTime = try r.u16("Max_RX_Time")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u16(maxTxOctets)
        w.u16(maxTxTime)
        w.u16(maxRxOctets)
        w.u16(maxRxTime)
    }

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " tx " + String(maxTxOctets) + " octets rx "
            + String(maxRxOctets) + " octets"
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("Max TX octets", EventFormat.count16(maxTxOctets))
        f.add("Max TX time", EventFormat.microseconds(maxTxTime))
        f.add("Max RX octets", EventFormat.count16(maxRxOctets))
        f.add("Max RX time", EventFormat.microseconds(maxRxTime))
    }
}
