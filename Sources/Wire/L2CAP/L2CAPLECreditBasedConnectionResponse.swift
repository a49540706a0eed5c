/// L2CAP_LE_CREDIT_BASED_CONNECTION_RSP data (Core Spec v5.4 Vol 3, Part A, §4.23). On a
/// refusal the other fields are zero but still present.
public struct L2CAPLECreditBasedConnectionResponse: WireCodable, Hashable {
    public var destinationCID: L2CAPChannelID
    public var mtu: UInt16
    public var mps: UInt16
    public var initialCredits: UInt16
    public var result: L2CAPLECreditBasedConnectionResult

    public init(destinationCID: L2CAPChannelID, mtu: UInt16, mps: UInt16, initialCredits: UInt16,
                result: L2CAPLECreditBasedConnectionResult) {
        self.destinationCID = destinationCID
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.result = result
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        destinationCID = L2CAPChannelID(try reader.u16("Destination CID"))
        mtu = try reader.u16("MTU")
        mps = try reader.u16("MPS")
        initialCredits = try reader.u16("Initial Credits")
        result = L2CAPLECreditBasedConnectionResult(try reader.u16("Result"))
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(destinationCID.rawValue)
        writer.u16(mtu)
        writer.u16(mps)
        writer.u16(initialCredits)
        writer.u16(result.rawValue)
    }
}
