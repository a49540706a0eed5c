/// Data of L2CAP_DISCONNECTION_REQ and L2CAP_DISCONNECTION_RSP, which share one layout
/// (Core Spec v5.4 Vol 3, Part A, §4.6 and §4.7): Destination CID, Source CID, each named
/// from the sender of the request.
public struct L2CAPDisconnectionParameters: WireCodable, Hashable {
    public var destinationCID: L2CAPChannelID
    public var sourceCID: L2CAPChannelID

    public init(destinationCID: L2CAPChannelID, sourceCID: L2CAPChannelID) {
        self.destinationCID = destinationCID
        self.sourceCID = sourceCID
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        destinationCID = L2CAPChannelID(try reader.u16("Destination CID"))
        sourceCID = L2CAPChannelID(try reader.u16("Source CID"))
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(destinationCID.rawValue)
        writer.u16(sourceCID.rawValue)
    }
}

extension L2CAPDisconnectionParameters {
    func describeFields(into fields: inout FieldList) {
        fields.add("Destination CID", L2CAPText.hex16(destinationCID.rawValue))
        fields.add("Source CID", L2CAPText.hex16(sourceCID.rawValue))
    }
}
