/// Basic L2CAP header of every B-frame (and of K-frames, whose SDU header follows it):
/// Length (payload bytes, header excluded) and Channel ID (Core Spec v5.4 Vol 3, Part A, §3.1).
public struct L2CAPBasicHeader: WireCodable, Hashable {
    public static let size = 4

    public var length: UInt16
    public var channelID: L2CAPChannelID

    public init(length: UInt16, channelID: L2CAPChannelID) {
        self.length = length
        self.channelID = channelID
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        length = try reader.u16("L2CAP length")
        channelID = L2CAPChannelID(try reader.u16("L2CAP channel ID"))
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(length)
        writer.u16(channelID.rawValue)
    }
}
