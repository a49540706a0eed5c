// libFuzzer harness: ACL reassembly (Wire/ACL/ACLReassembler.swift) and the L2CAP frames it
// produces, over arbitrary sequences of ACL packets on three handles.
//
// Input: [limit selector][fragment size] then packets, each [flags][length] data…
//   flags bits 0-1 handle, 2-3 Packet_Boundary_Flag, 4-5 Broadcast_Flag, bit 7 raw (the length
//   byte and data are the packet's bytes after the H4 indicator, decoded with ACLPacket.decode).
// Checks: no trap; the frames equal those of a plain reference model of Core Spec v5.4 Vol 3,
// Part A, §7.2 recombination (with the payload limit); a frame cut again by ACLFragmenter
// reassembles to itself; L2CAP, ATT and signaling decoders accept or reject each payload
// without trapping.
import Wire

/// The obvious recombination, written for clarity rather than speed: the fragments of each
/// handle since its last start, cut once the basic header's length is reached.
private struct ReferenceReassembler {
    var limit: Int
    var buffers: [UInt16: [UInt8]] = [:]

    mutating func feed(handle: UInt16, start: Bool, data: ArraySlice<UInt8>) -> L2CAPFrame? {
        var buffer: [UInt8]
        if start {
            buffer = Array(data)
        } else {
            guard let b = buffers[handle] else { return nil }
            buffer = b + data
        }
        buffers[handle] = nil
        guard buffer.count >= 4 else {
            buffers[handle] = buffer
            return nil
        }
        let length = Int(buffer[0]) | Int(buffer[1]) << 8
        let total = 4 + length
        if buffer.count < total {
            buffers[handle] = buffer
            return nil
        }
        guard buffer.count == total, length <= limit else { return nil }
        let cid = L2CAPChannelID(UInt16(buffer[2]) | UInt16(buffer[3]) << 8)
        return L2CAPFrame(handle: handle, channelID: cid, payload: Array(buffer[4...]))
    }
}

private func look(at frame: L2CAPFrame) {
    var fields = FieldList()
    frame.describeFields(into: &fields)
    _ = frame.summary
    switch frame.channelID {
    case .att:
        if let pdu = try? ATTPDU.decode(frame.payload) {
            pdu.describeFields(into: &fields)
            _ = pdu.summary
        }
    case .leSignaling:
        if let command = try? LESignalingCommand.decode(frame.payload) {
            command.describeFields(into: &fields)
            _ = command.summary
        }
    default:
        break
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzACLL2CAP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let limits = [65535, 23, 0, 247, 517, 1024, 3, 65535]
    let limit = limits[Int(input.u8()) & 7]
    let fragmentSize = 1 + Int(input.u8() & 0x3F)
    let handles: [UInt16] = [0x0001, 0x0040, 0x0EFF, 0x0FFF]

    var reassembler = ACLReassembler(maximumPayloadLength: limit)
    var reference = ReferenceReassembler(limit: limit)
    var steps = 0
    var handlesSeen: Set<UInt16> = []
    while !input.isAtEnd {
        steps += 1
        let flags = input.u8()
        let packet: ACLPacket
        if flags & 0x80 != 0 {
            let raw = input.chunk()
            guard let p = try? ACLPacket.decode(raw[...]) else { continue }
            packet = p
            invariant((try? ACLPacket.decode(p.encoded[...])) == p, "ACL packet round trip")
        } else {
            packet = ACLPacket(handle: handles[Int(flags) & 3], packetBoundary: ACLPacketBoundary(bits: UInt16(flags >> 2)),
                               broadcast: ACLBroadcastFlag(rawValue: (flags >> 4) & 3), data: input.chunk()[...])
        }
        _ = packet.summary
        handlesSeen.insert(packet.handle)
        let output = reassembler.feed(packet)
        let expected = reference.feed(handle: packet.handle, start: packet.packetBoundary.isStart, data: packet.data)
        invariant(output.frame == expected,
                  "step \(steps): reassembler gave \(String(describing: output.frame)), reference \(String(describing: expected))")
        invariant(reassembler.handlesInProgress.count <= handlesSeen.count, "more handles in progress than handles used")
        for issue in output.issues { _ = issue.description }
        guard let frame = output.frame else { continue }
        invariant(frame.payload.count <= limit, "frame above the payload limit")
        look(at: frame)

        // Cut again and put back together.
        let pdu = frame.pduBytes
        invariant((try? L2CAPFrame.decode(handle: frame.handle, pdu: pdu[...])) == frame, "L2CAP frame round trip")
        var again = ACLReassembler(maximumPayloadLength: limit)
        var rebuilt: L2CAPFrame?
        for fragment in ACLFragmenter(maximumDataLength: fragmentSize).fragment(frame) {
            invariant(fragment.data.count <= fragmentSize, "fragment above the maximum data length")
            invariant(rebuilt == nil, "frame complete before its last fragment")
            rebuilt = again.feed(fragment).frame
        }
        invariant(rebuilt == frame, "fragmenting and reassembling changed the frame")
    }
    return 0
}
