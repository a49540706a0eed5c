/// An HCI ACL Data packet: header and the data it announces (Core Spec v5.4 Vol 4, Part E,
/// §5.4.2). `data` is a slice of the bytes it was decoded from; nothing is copied.
public struct ACLPacket: WireCodable, Hashable {
    public var header: ACLHeader
    public var data: ArraySlice<UInt8>

    public init(header: ACLHeader, data: ArraySlice<UInt8>) {
        self.header = header
        self.data = data
    }

    /// A packet whose length field is the size of `data`.
    public init(handle: UInt16, packetBoundary: ACLPacketBoundary,
                broadcast: ACLBroadcastFlag = .pointToPoint, data: ArraySlice<UInt8>) {
        header = ACLHeader(handle: handle, packetBoundary: packetBoundary, broadcast: broadcast,
                           dataTotalLength: UInt16(clamping: data.count))
        self.data = data
    }

    public var handle: UInt16 { header.handle }
    public var packetBoundary: ACLPacketBoundary { header.packetBoundary }

    /// Reads the header and exactly the data it announces; later bytes stay in `reader`.
    public init(decoding reader: inout ByteReader) throws(WireError) {
        header = try ACLHeader(decoding: &reader)
        data = try reader.bytes(Int(header.dataTotalLength), "ACL data")
    }

    /// Decodes one whole packet (the bytes after the H4 indicator). The length field must
    /// account for every byte: a short packet and trailing bytes are both errors, since either
    /// means the transport lost framing.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(WireError) -> ACLPacket {
        var reader = ByteReader(bytes)
        let packet = try ACLPacket(decoding: &reader)
        if !reader.isAtEnd {
            throw WireError.malformed("ACL data total length \(packet.header.dataTotalLength) leaves \(reader.count) byte(s) unaccounted for")
        }
        return packet
    }

    /// From an HCI packet of type ACL.
    public init(_ packet: HCIPacket) throws(WireError) {
        guard packet.type == .acl else {
            throw WireError.invalidValue(field: "H4 packet type for ACL", value: UInt64(packet.type.rawValue))
        }
        self = try ACLPacket.decode(packet.bytes)
    }

    /// Writes the header with the length of `data` (not `header.dataTotalLength`), so an edited
    /// packet cannot go out with a stale length.
    public func encode(into writer: inout ByteWriter) {
        writer.u16(ACLHeader.handleAndFlags(header.handle, header.packetBoundary, header.broadcast))
        writer.u16(UInt16(clamping: data.count))
        writer.append(data)
    }

    /// As an HCI packet ready for the transport.
    public var hciPacket: HCIPacket { HCIPacket(type: .acl, bytes: encoded) }
}

extension ACLPacket: FieldDescribing {
    public var summary: String {
        "handle \(L2CAPText.hex16(header.handle)) \(header.packetBoundary.name) dlen \(data.count)"
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Handle", L2CAPText.hex16(header.handle))
        fields.add("Packet boundary", header.packetBoundary.name + " (0b" + String(header.packetBoundary.rawValue >> 1) + String(header.packetBoundary.rawValue & 1) + ")")
        fields.add("Broadcast", header.broadcast.name)
        fields.add("Data total length", String(header.dataTotalLength))
    }
}
