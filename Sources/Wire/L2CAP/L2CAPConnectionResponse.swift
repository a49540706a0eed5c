/// L2CAP_CONNECTION_RSP data (Core Spec v5.4 Vol 3, Part A, §4.3): the responder's end of
/// the channel (`destinationCID`), the requester's (`sourceCID`, echoed), and the outcome. A
/// pending result is followed by another response with the same Identifier.
public struct L2CAPConnectionResponse: WireCodable, Hashable {
    public var destinationCID: L2CAPChannelID
    public var sourceCID: L2CAPChannelID
    public var result: L2CAPConnectionResult
    /// Why a result is pending: 0x0000 no further information, 0x0001 authentication
    /// pending, 0x0002 authorization pending.
    public var status: UInt16

    public init(destinationCID: L2CAPChannelID, sourceCID: L2CAPChannelID, result: L2CAPConnectionResult, status: UInt16 = 0) {
        self.destinationCID = destinationCID
        self.sourceCID = sourceCID
        self.result = result
        self.status = status
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        destinationCID = L2CAPChannelID(try reader.u16("Destination CID"))
        sourceCID = L2CAPChannelID(try reader.u16("Source CID"))
        result = L2CAPConnectionResult(try reader.u16("Result"))
        status = try reader.u16("Status")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(destinationCID.rawValue)
        writer.u16(sourceCID.rawValue)
        writer.u16(result.rawValue)
        writer.u16(status)
    }

    public var statusName: String {
        switch status {
        case 0x0000: return "No further information available"
        case 0x0001: return "Authentication pending"
        case 0x0002: return "Authorization pending"
        default: return "Reserved"
        }
    }
}
