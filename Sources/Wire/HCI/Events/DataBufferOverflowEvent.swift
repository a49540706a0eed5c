/// HCI_Data_Buffer_Overflow (Vol 4, Part E, §7.7.26): the host sent more data than its
/// credits allowed and the controller dropped it — a host flow-control bug.
public struct DataBufferOverflowEvent: WireCodable, FieldDescribing, Hashable {
    /// 0x00 synchronous, 0x01 ACL.
    public var linkType: UInt8

    public static let synchronous: UInt8 = 0x00
    public static let acl: UInt8 = 0x01

    public init(linkType: UInt8) { self.linkType = linkType }

    public init(decoding r: inout ByteReader) throws(WireError) {
        linkType = try r.u8("Link_Type")
    }

    public func encode(into w: inout ByteWriter) { w.u8(linkType) }

    public var linkTypeName: String {
        switch linkType {
        case 0x00: return "Synchronous"
        case 0x01: return "ACL"
        default: return "Reserved"
        }
    }

    public var summary: String { linkTypeName + " buffer overflow" }

    public func describeFields(into f: inout FieldList) {
        f.add("Link type", EventFormat.named(linkTypeName, linkType))
    }
}
