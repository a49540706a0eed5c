/// L2CAP_CREDIT_BASED_CONNECTION_REQ data (Core Spec v5.4 Vol 3, Part A, §4.25): one request
/// for up to five channels in Enhanced Credit Based Flow Control Mode, all to the same SPSM
/// with the same receive MTU, MPS and initial credits. EATT bearers (SPSM 0x0027) are opened
/// with it.
public struct L2CAPCreditBasedConnectionRequest: WireCodable, Hashable {
    public var spsm: UInt16
    /// The largest SDU the sender can receive on each of the channels.
    public var mtu: UInt16
    /// The largest K-frame payload the sender can receive.
    public var mps: UInt16
    public var initialCredits: UInt16
    /// The sender's endpoints, one per channel asked for.
    public var sourceCIDs: [L2CAPChannelID]

    public init(spsm: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16, sourceCIDs: [L2CAPChannelID]) {
        self.spsm = spsm
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.sourceCIDs = sourceCIDs
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        spsm = try reader.u16("SPSM")
        mtu = try reader.u16("MTU")
        mps = try reader.u16("MPS")
        initialCredits = try reader.u16("Initial Credits")
        sourceCIDs = try L2CAPChannelIDList.decode(&reader, "Source CID")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(spsm)
        writer.u16(mtu)
        writer.u16(mps)
        writer.u16(initialCredits)
        L2CAPChannelIDList.encode(sourceCIDs, into: &writer)
    }
}
