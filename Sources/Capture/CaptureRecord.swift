import Wire

/// One packet read from or written to a capture file.
public struct CaptureRecord: Sendable, Hashable {
    /// Microseconds since the Unix epoch (btsnoop and pcap both reach this resolution).
    public var timestampMicros: Int64
    public var direction: Direction
    public var packet: HCIPacket
    /// Byte offset of the record in its file, for error messages.
    public var fileOffset: Int

    public init(timestampMicros: Int64, direction: Direction, packet: HCIPacket, fileOffset: Int = 0) {
        self.timestampMicros = timestampMicros
        self.direction = direction
        self.packet = packet
        self.fileOffset = fileOffset
    }
}
