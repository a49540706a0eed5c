/// L2CAP_CREDIT_BASED_RECONFIGURE_REQ data (Core Spec v5.4 Vol 3, Part A, §4.27): new receive
/// MTU and MPS for some of the sender's enhanced credit-based channels. The CIDs are the
/// sender's own endpoints (the receiver's destinations: hence the specification's name).
public struct L2CAPCreditBasedReconfigureRequest: WireCodable, Hashable {
    public var mtu: UInt16
    public var mps: UInt16
    public var destinationCIDs: [L2CAPChannelID]

    public init(mtu: UInt16, mps: UInt16, destinationCIDs: [L2CAPChannelID]) {
        self.mtu = mtu
        self.mps = mps
        self.destinationCIDs = destinationCIDs
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        mtu = try reader.u16("MTU")
        mps = try reader.u16("MPS")
        destinationCIDs = try L2CAPChannelIDList.decode(&reader, "Destination CID")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(mtu)
        writer.u16(mps)
        L2CAPChannelIDList.encode(destinationCIDs, into: &writer)
    }
}
