/// A complete L2CAP PDU received or to be sent on one ACL link: which link, which channel, and
/// the information payload. `payload` is a slice: of the ACL packet when the PDU came in one
/// fragment, of the reassembly buffer otherwise.
public struct L2CAPFrame: Sendable, Hashable {
    /// Connection_Handle of the ACL link.
    public var handle: UInt16
    public var channelID: L2CAPChannelID
    public var payload: ArraySlice<UInt8>

    public init(handle: UInt16, channelID: L2CAPChannelID, payload: ArraySlice<UInt8>) {
        self.handle = handle
        self.channelID = channelID
        self.payload = payload
    }

    public init(handle: UInt16, channelID: L2CAPChannelID, payload: [UInt8]) {
        self.init(handle: handle, channelID: channelID, payload: payload[...])
    }

    /// The basic header this frame goes out with.
    public var basicHeader: L2CAPBasicHeader {
        L2CAPBasicHeader(length: UInt16(clamping: payload.count), channelID: channelID)
    }

    /// Decodes a whole PDU (basic header + payload). The length field must match the bytes
    /// exactly: reassembly already cut the PDU, so any difference is a broken frame.
    public static func decode(handle: UInt16, pdu: ArraySlice<UInt8>) throws(WireError) -> L2CAPFrame {
        var reader = ByteReader(pdu)
        let header = try L2CAPBasicHeader(decoding: &reader)
        let payload = try reader.bytes(Int(header.length), "L2CAP payload")
        if !reader.isAtEnd {
            throw WireError.malformed("L2CAP length \(header.length) leaves \(reader.count) byte(s) unaccounted for")
        }
        return L2CAPFrame(handle: handle, channelID: header.channelID, payload: payload)
    }

    /// Basic header then payload.
    public func encodePDU(into writer: inout ByteWriter) {
        basicHeader.encode(into: &writer)
        writer.append(payload)
    }

    /// The PDU bytes (basic header + payload), as the fragmenter cuts them.
    public var pduBytes: [UInt8] {
        var writer = ByteWriter(capacity: L2CAPBasicHeader.size + payload.count)
        encodePDU(into: &writer)
        return writer.bytes
    }
}

extension L2CAPFrame: FieldDescribing {
    public var summary: String {
        "handle \(L2CAPText.hex16(handle)) cid \(L2CAPText.hex16(channelID.rawValue)) len \(payload.count)"
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Handle", L2CAPText.hex16(handle))
        fields.add("Channel ID", channelID.description)
        fields.add("Length", String(payload.count))
    }
}
