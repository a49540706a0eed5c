import Testing
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }

/// `ACLReassembler.wholeFrame`, the data path's shortcut, must give exactly what `feed` gives
/// when a PDU is whole in one start fragment, and nothing otherwise (then `feed` decides).
@Suite struct ACLWholeFrameTests {
    // Core Spec v5.4 Vol 3, Part A, §3.1 basic header + §7.2 recombination; Vol 4, Part E,
    // §5.4.2 Packet_Boundary_Flag: "05 00 04 00 | 1b 2a 00 06 48", an ATT Handle Value
    // Notification (Vol 3, Part F, §3.4.7.1) of handle 0x002A, in one ACL packet.
    @Test func wholePDUInOneStartFragmentMatchesFeed() throws {
        for pb in [ACLPacketBoundary.firstNonFlushable, .firstFlushable, .complete] {
            let packet = ACLPacket(handle: 0x40, packetBoundary: pb, data: hx("05 00 04 00 1b 2a 00 06 48")[...])
            var r = ACLReassembler()
            let shortcut = try #require(r.wholeFrame(packet))
            let fed = try #require(r.feed(packet).frame)
            #expect(shortcut == fed)
            #expect(shortcut.channelID == .att)
            #expect(Array(shortcut.payload) == hx("1b 2a 00 06 48"))
        }
    }

    @Test func anythingElseIsLeftToFeed() {
        let r = ACLReassembler(maximumPayloadLength: 4)
        // A continuing fragment.
        #expect(r.wholeFrame(ACLPacket(handle: 1, packetBoundary: .continuing, data: hx("1e")[...])) == nil)
        // The basic header split (2 of its 4 bytes).
        #expect(r.wholeFrame(ACLPacket(handle: 1, packetBoundary: .firstFlushable, data: hx("01 00")[...])) == nil)
        // The L2CAP length (5) announces more than the packet holds: the first of two fragments.
        #expect(r.wholeFrame(ACLPacket(handle: 1, packetBoundary: .firstFlushable, data: hx("05 00 04 00 1b 2a")[...])) == nil)
        // More bytes than announced (overrun).
        #expect(r.wholeFrame(ACLPacket(handle: 1, packetBoundary: .firstFlushable, data: hx("01 00 04 00 1e ff")[...])) == nil)
        // Above the limit (5 > 4), though whole.
        #expect(r.wholeFrame(ACLPacket(handle: 1, packetBoundary: .firstFlushable, data: hx("05 00 04 00 1b 2a 00 06 48")[...])) == nil)
        // Within the limit and whole: taken.
        #expect(r.wholeFrame(ACLPacket(handle: 1, packetBoundary: .firstFlushable, data: hx("01 00 04 00 1e")[...])) != nil)
    }

    @Test func aFrameInProgressDisablesTheShortcut() {
        var r = ACLReassembler()
        _ = r.feed(ACLPacket(handle: 1, packetBoundary: .firstFlushable, data: hx("05 00 04 00 1b 2a")[...]))
        #expect(r.isInProgress(handle: 1))
        // A whole PDU now abandons the partial one: `feed` must see it to report that.
        let whole = ACLPacket(handle: 1, packetBoundary: .firstFlushable, data: hx("01 00 04 00 1e")[...])
        #expect(r.wholeFrame(whole) == nil)
        let out = r.feed(whole)
        #expect(out.abandoned != nil)
        #expect(out.frame?.payload == [0x1E][...])
    }
}
