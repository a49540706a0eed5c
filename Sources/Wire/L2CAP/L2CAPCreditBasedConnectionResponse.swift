/// L2CAP_CREDIT_BASED_CONNECTION_RSP data (Core Spec v5.4 Vol 3, Part A, §4.26). The
/// Destination CIDs answer the request's Source CIDs in the same order; 0x0000 marks a
/// channel that was refused.
public struct L2CAPCreditBasedConnectionResponse: WireCodable, Hashable {
    /// The largest SDU the responder can receive on each of the channels.
    public var mtu: UInt16
    public var mps: UInt16
    public var initialCredits: UInt16
    public var result: L2CAPCreditBasedConnectionResult
    /// The responder's endpoints, in the order of the request's Source CIDs.
    public var destinationCIDs: [L2CAPChannelID]

    public init(mtu: UInt16, mps: UInt16, initialCredits: UInt16, result: L2CAPCreditBasedConnectionResult,
                destinationCIDs: [L2CAPChannelID]) {
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.result = result
        self.destinationCIDs = destinationCIDs
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        mtu = try reader.u16("MTU")
        mps = try reader.u16("MPS")
        initialCredits = try reader.u16("Initial Credits")
        result = L2CAPCreditBasedConnectionResult(try reader.u16("Result"))
        destinationCIDs = try L2CAPChannelIDList.decode(&reader, "Destination CID")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(mtu)
        writer.u16(mps)
        writer.u16(initialCredits)
        writer.u16(result.rawValue)
        L2CAPChannelIDList.encode(destinationCIDs, into: &writer)
    }
}
