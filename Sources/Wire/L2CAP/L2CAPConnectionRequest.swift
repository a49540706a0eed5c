/// L2CAP_CONNECTION_REQ data (Core Spec v5.4 Vol 3, Part A, §4.2): opens a BR/EDR
/// connection-oriented channel to `psm`; `sourceCID` is the requester's end of it.
public struct L2CAPConnectionRequest: WireCodable, Hashable {
    public var psm: L2CAPPSM
    public var sourceCID: L2CAPChannelID

    public init(psm: L2CAPPSM, sourceCID: L2CAPChannelID) {
        self.psm = psm
        self.sourceCID = sourceCID
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        psm = L2CAPPSM(try reader.u16("PSM"))
        sourceCID = L2CAPChannelID(try reader.u16("Source CID"))
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(psm.rawValue)
        writer.u16(sourceCID.rawValue)
    }
}
