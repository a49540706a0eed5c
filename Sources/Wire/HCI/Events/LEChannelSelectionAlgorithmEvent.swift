/// HCI_LE_Channel_Selection_Algorithm (Vol 4, Part E, §7.7.65.20): which channel hopping
/// algorithm a new connection uses (#2 needs both sides to support it).
public struct LEChannelSelectionAlgorithmEvent: WireCodable, FieldDescribing, Hashable {
    public var connectionHandle: UInt16
    /// 0x00 is algorithm #1, 0x01 is #2.
    public var channelSelectionAlgorithm: UInt8

    public init(connectionHandle: UInt16, channelSelectionAlgorithm: UInt8) {
        self.connectionHandle = connectionHandle
        self.channelSelectionAlgorithm = channelSelectionAlgorithm
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        connectionHandle = try r.eventConnectionHandle()
        channelSelectionAlgorithm = try r.u8("Channel_Selection_Algorithm")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8(channelSelectionAlgorithm)
    }

    public var algorithmName: String {
        switch channelSelectionAlgorithm {
        case 0x00: return "#1"
        case 0x01: return "#2"
        default: return "Reserved"
        }
    }

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " algorithm " + algorithmName
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("Channel selection algorithm", EventFormat.named(algorithmName, channelSelectionAlgorithm))
    }
}
