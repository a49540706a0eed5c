/// Cuts L2CAP PDUs into ACL packets no larger than the controller's buffers (Core Spec v5.4
/// Vol 3, Part A, §7.2.1; the size comes from LE Read Buffer Size, Vol 4, Part E, §7.8.2).
/// The packets' data are slices of one PDU buffer, so fragmenting copies the PDU once.
public struct ACLFragmenter: Sendable, Hashable {
    /// Most data bytes per ACL packet (ACL_Data_Packet_Length / LE_ACL_Data_Packet_Length).
    public var maximumDataLength: Int
    /// Flag of the first packet: first non-flushable (0b00) is what an LE host sends.
    public var firstPacketBoundary: ACLPacketBoundary

    /// Values below 1 are treated as 1 and above 65535 as 65535, so the fragmenter always
    /// makes progress and every length fits its 16-bit field.
    public init(maximumDataLength: Int, firstPacketBoundary: ACLPacketBoundary = .firstNonFlushable) {
        self.maximumDataLength = maximumDataLength
        self.firstPacketBoundary = firstPacketBoundary
    }

    public func fragment(_ frame: L2CAPFrame) -> [ACLPacket] {
        fragment(handle: frame.handle, pdu: frame.pduBytes[...])
    }

    /// Packets for an encoded PDU (basic header included); none for an empty one.
    public func fragment(handle: UInt16, pdu: ArraySlice<UInt8>) -> [ACLPacket] {
        let size = max(1, min(maximumDataLength, 65535))
        var packets: [ACLPacket] = []
        packets.reserveCapacity((pdu.count + size - 1) / size)
        var start = pdu.startIndex
        while start < pdu.endIndex {
            let end = start + min(size, pdu.endIndex - start)
            let pb: ACLPacketBoundary = start == pdu.startIndex ? firstPacketBoundary : .continuing
            packets.append(ACLPacket(handle: handle, packetBoundary: pb, data: pdu[start..<end]))
            start = end
        }
        return packets
    }
}
