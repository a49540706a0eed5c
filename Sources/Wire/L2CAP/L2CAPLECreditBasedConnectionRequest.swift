/// L2CAP_LE_CREDIT_BASED_CONNECTION_REQ data (Core Spec v5.4 Vol 3, Part A, §4.22).
public struct L2CAPLECreditBasedConnectionRequest: WireCodable, Hashable {
    /// LE Protocol/Service Multiplexer of the service to reach.
    public var spsm: UInt16
    public var sourceCID: L2CAPChannelID
    public var mtu: UInt16
    public var mps: UInt16
    public var initialCredits: UInt16

    public init(spsm: UInt16, sourceCID: L2CAPChannelID, mtu: UInt16, mps: UInt16, initialCredits: UInt16) {
        self.spsm = spsm
        self.sourceCID = sourceCID
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        spsm = try reader.u16("SPSM")
        sourceCID = L2CAPChannelID(try reader.u16("Source CID"))
        mtu = try reader.u16("MTU")
        mps = try reader.u16("MPS")
        initialCredits = try reader.u16("Initial Credits")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(spsm)
        writer.u16(sourceCID.rawValue)
        writer.u16(mtu)
        writer.u16(mps)
        writer.u16(initialCredits)
    }
}
