import Wire

/// One packet read from or written to a capture file.
public struct CaptureRecord: Sendable, Hashable {
    /// Microseconds since the Unix epoch (btsnoop and pcap both reach this resolution).
    public var timestampMicros: Int64
    public var direction: Direction
    public var packet: HCIPacket
    /// Byte offset of the record in its file, for error messages.
    public var fileOffset: Int
    /// Controller the packet belongs to (`hciN`): only btsnoop datalink 2001 (Linux monitor)
    /// records it; every other format reports 0.
    public var adapterIndex: UInt16
    /// False where the file does not say which way the packet went and `direction` is a
    /// placeholder (`.controllerToHost`): ACL, SCO and ISO packets under LINKTYPE 187, which has
    /// no direction field, unless a pcapng `epb_flags` option supplies one.
    public var directionIsKnown: Bool

    public init(
        timestampMicros: Int64,
        direction: Direction,
        packet: HCIPacket,
        fileOffset: Int = 0,
        adapterIndex: UInt16 = 0,
        directionIsKnown: Bool = true
    ) {
        self.timestampMicros = timestampMicros
        self.direction = direction
        self.packet = packet
        self.fileOffset = fileOffset
        self.adapterIndex = adapterIndex
        self.directionIsKnown = directionIsKnown
    }
}
