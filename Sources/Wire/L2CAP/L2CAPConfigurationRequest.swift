/// L2CAP_CONFIGURATION_REQ data (Core Spec v5.4 Vol 3, Part A, §4.4): the options the sender
/// asks for on channel `destinationCID` (the recipient's end). Options describe what the
/// sender receives (its MTU, its mode). With the continuation flag set, more options follow
/// in another request.
public struct L2CAPConfigurationRequest: WireCodable, Hashable {
    public var destinationCID: L2CAPChannelID
    /// Bit 0: continuation; the other bits are reserved.
    public var flags: UInt16
    public var options: [L2CAPConfigurationOption]

    public init(destinationCID: L2CAPChannelID, flags: UInt16 = 0, options: [L2CAPConfigurationOption] = []) {
        self.destinationCID = destinationCID
        self.flags = flags
        self.options = options
    }

    public var continues: Bool { flags & 0x0001 != 0 }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        destinationCID = L2CAPChannelID(try reader.u16("Destination CID"))
        flags = try reader.u16("Flags")
        options = try L2CAPConfigurationOption.decodeAll(&reader)
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(destinationCID.rawValue)
        writer.u16(flags)
        for o in options { o.encode(into: &writer) }
    }
}
