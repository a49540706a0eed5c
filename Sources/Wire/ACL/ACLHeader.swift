/// The four-byte header of an HCI ACL Data packet (Core Spec v5.4 Vol 4, Part E, §5.4.2):
/// Handle (12 bits), Packet_Boundary_Flag (2), Broadcast_Flag (2), Data_Total_Length (16).
public struct ACLHeader: WireCodable, Hashable {
    public static let size = 4

    /// Connection_Handle; only the low 12 bits are carried.
    public var handle: UInt16
    public var packetBoundary: ACLPacketBoundary
    public var broadcast: ACLBroadcastFlag
    /// Number of data bytes that follow the header.
    public var dataTotalLength: UInt16

    public init(handle: UInt16, packetBoundary: ACLPacketBoundary,
                broadcast: ACLBroadcastFlag = .pointToPoint, dataTotalLength: UInt16) {
        self.handle = handle & 0x0FFF
        self.packetBoundary = packetBoundary
        self.broadcast = broadcast
        self.dataTotalLength = dataTotalLength
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        let handleAndFlags = try reader.u16("ACL handle and flags")
        handle = handleAndFlags & 0x0FFF
        packetBoundary = ACLPacketBoundary(bits: handleAndFlags >> 12)
        broadcast = ACLBroadcastFlag(rawValue: UInt8(truncatingIfNeeded: handleAndFlags >> 14))
        dataTotalLength = try reader.u16("ACL data total length")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(Self.handleAndFlags(handle, packetBoundary, broadcast))
        writer.u16(dataTotalLength)
    }

    static func handleAndFlags(_ handle: UInt16, _ pb: ACLPacketBoundary, _ bc: ACLBroadcastFlag) -> UInt16 {
        (handle & 0x0FFF) | UInt16(pb.rawValue) << 12 | UInt16(bc.rawValue & 0b11) << 14
    }
}
