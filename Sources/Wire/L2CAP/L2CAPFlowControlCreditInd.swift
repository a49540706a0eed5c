/// L2CAP_FLOW_CONTROL_CREDIT_IND data (Core Spec v5.4 Vol 3, Part A, §4.24): more K-frames
/// the sender may receive on its channel `cid`.
public struct L2CAPFlowControlCreditInd: WireCodable, Hashable {
    public var cid: L2CAPChannelID
    public var credits: UInt16

    public init(cid: L2CAPChannelID, credits: UInt16) {
        self.cid = cid
        self.credits = credits
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        cid = L2CAPChannelID(try reader.u16("CID"))
        credits = try reader.u16("Credits")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(cid.rawValue)
        writer.u16(credits)
    }
}
