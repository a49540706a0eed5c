/// HCI_LE_Enhanced_Connection_Complete [v2] (Vol 4, Part E, §7.7.65.10): v1 plus which
/// advertising set or periodic advertising train the connection came from.
public struct LEEnhancedConnectionCompleteV2Event: WireCodable, FieldDescribing, Hashable {
    /// Every field v1 has.
    public var v1: LEEnhancedConnectionCompleteV1Event
    /// The advertising set of a peripheral-role connection; 0xFF otherwise.
    public var advertisingHandle: UInt8
    /// The periodic advertising train (PAwR); 0xFFFF otherwise.
    public var syncHandle: UInt16

    public init(_ v1: LEEnhancedConnectionCompleteV1Event, advertisingHandle: UInt8 = 0xFF, syncHandle: UInt16 = 0xFFFF) {
        self.v1 = v1
        self.advertisingHandle = advertisingHandle
        self.syncHandle = syncHandle
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        v1 = try LEEnhancedConnectionCompleteV1Event(decoding: &r)
        advertisingHandle = try r.u8("Advertising_Handle")
        syncHandle = try r.u16("Sync_Handle")
    }

    public func encode(into w: inout ByteWriter) {
        v1.encode(into: &w)
        w.u8(advertisingHandle)
        w.u16(syncHandle)
    }

    public var status: HCIStatus { v1.status }
    public var connectionHandle: UInt16 { v1.connectionHandle }
    public var role: LERole { v1.role }
    public var peerAddressType: LEAddressType { v1.peerAddressType }
    public var peerAddress: BDAddress { v1.peerAddress }
    public var peer: DeviceAddress { v1.peer }
    public var connectionComplete: LEConnectionCompleteEvent { v1.connectionComplete }

    public var summary: String { v1.summary }

    public func describeFields(into f: inout FieldList) {
        v1.describeFields(into: &f)
        f.add("Advertising handle", EventFormat.hex8(advertisingHandle))
        f.add("Sync handle", EventFormat.hex16(syncHandle))
    }
}
