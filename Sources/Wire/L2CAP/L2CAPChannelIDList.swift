/// The CID list that ends the enhanced credit-based commands (Core Spec v5.4 Vol 3, Part A,
/// §4.25–§4.27): 2 octets per channel up to the end of the command's data, at most 5 by the
/// specification. More than 5 still decode (a receiver refuses them, a decoder shows them);
/// an odd octet left over is malformed.
enum L2CAPChannelIDList {
    static let maximumCount = 5

    static func decode(_ reader: inout ByteReader, _ field: StaticString) throws(WireError) -> [L2CAPChannelID] {
        guard reader.count % 2 == 0 else {
            throw WireError.malformed("\(field): \(reader.count) octets is not a whole number of 2-octet CIDs")
        }
        var cids: [L2CAPChannelID] = []
        cids.reserveCapacity(reader.count / 2)
        while !reader.isAtEnd {
            cids.append(L2CAPChannelID(try reader.u16(field)))
        }
        return cids
    }

    static func encode(_ cids: [L2CAPChannelID], into writer: inout ByteWriter) {
        for cid in cids { writer.u16(cid.rawValue) }
    }

    /// `0x0040, 0x0041`, for summaries and fields.
    static func text(_ cids: [L2CAPChannelID]) -> String {
        cids.isEmpty ? "(none)" : cids.map { L2CAPText.hex16($0.rawValue) }.joined(separator: ", ")
    }
}
