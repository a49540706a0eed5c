import Testing
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }

private func start(_ handle: UInt16, _ hex: String, pb: ACLPacketBoundary = .firstFlushable) -> ACLPacket {
    ACLPacket(handle: handle, packetBoundary: pb, data: hx(hex)[...])
}

private func cont(_ handle: UInt16, _ hex: String) -> ACLPacket {
    ACLPacket(handle: handle, packetBoundary: .continuing, data: hx(hex)[...])
}

@Suite struct ACLReassemblerTests {
    // Core Spec v5.4 Vol 3, Part A, §7.2 (recombination) with the basic header of §3.1:
    // a B-frame "05 00 04 00 | 1b 2a 00 06 48" (ATT notification) in one ACL packet.
    @Test func singleFragmentFrameIsASliceOfThePacket() throws {
        var r = ACLReassembler()
        let packet = start(0x40, "05 00 04 00 1b 2a 00 06 48")
        let out = r.feed(packet)
        #expect(out.issues.isEmpty)
        let frame = try #require(out.frame)
        #expect(frame.handle == 0x40)
        #expect(frame.channelID == .att)
        #expect(Array(frame.payload) == hx("1b 2a 00 06 48"))
        // No copy: the payload shares the packet's storage, four bytes in.
        let packetBase = packet.data.withUnsafeBufferPointer { $0.baseAddress }
        let payloadBase = frame.payload.withUnsafeBufferPointer { $0.baseAddress }
        #expect(payloadBase == packetBase.map { $0 + 4 })
        #expect(!r.isInProgress(handle: 0x40))
    }

    @Test func everyStartFlagStartsAFrame() {
        for pb in [ACLPacketBoundary.firstNonFlushable, .firstFlushable, .complete] {
            var r = ACLReassembler()
            #expect(r.feed(start(1, "01 00 04 00 1e", pb: pb)).frame?.payload == [0x1E][...])
        }
    }

    @Test func twoFragmentFrame() {
        var r = ACLReassembler()
        // L2CAP length 7 on CID 0x0004: Read Response with 6 value bytes, split 6 + 5.
        let first = r.feed(start(0x41, "07 00 04 00 0b 01"))
        #expect(first.frame == nil && first.issues.isEmpty)
        #expect(r.isInProgress(handle: 0x41))
        let second = r.feed(cont(0x41, "02 03 04 05 06"))
        #expect(second.issues.isEmpty)
        #expect(second.frame == L2CAPFrame(handle: 0x41, channelID: .att, payload: hx("0b 01 02 03 04 05 06")))
        #expect(!r.isInProgress(handle: 0x41))
    }

    @Test func threeFragmentFrameWithTheHeaderSplit() {
        var r = ACLReassembler()
        #expect(r.feed(start(2, "06 00")).frame == nil)
        #expect(r.feed(cont(2, "05 00 13")).frame == nil)
        let out = r.feed(cont(2, "01 00 02 00 01"))
        #expect(out.issues.isEmpty)
        #expect(out.frame == L2CAPFrame(handle: 2, channelID: .leSignaling, payload: hx("13 01 00 02 00 01")))
    }

    @Test func continuationWithoutStartIsReportedAndDropped() {
        var r = ACLReassembler()
        let out = r.feed(cont(3, "aa bb"))
        #expect(out.frame == nil)
        #expect(out.issue == .continuationWithoutStart(handle: 3, dataLength: 2))
        #expect(!r.isInProgress(handle: 3))
    }

    @Test func overrunInAContinuationDropsTheFrame() {
        var r = ACLReassembler()
        _ = r.feed(start(4, "03 00 04 00 0b"))
        let out = r.feed(cont(4, "01 02 03"))
        #expect(out.frame == nil)
        #expect(out.issue == .overrun(handle: 4, announcedLength: 3, receivedLength: 4))
        #expect(!r.isInProgress(handle: 4))
        // The stream recovers with the next start.
        #expect(r.feed(start(4, "01 00 04 00 1e")).frame != nil)
    }

    @Test func overrunInASinglePacket() {
        var r = ACLReassembler()
        let out = r.feed(start(4, "01 00 04 00 1e ff"))
        #expect(out.frame == nil)
        #expect(out.issue == .overrun(handle: 4, announcedLength: 1, receivedLength: 2))
    }

    @Test func newStartWhileInProgressDropsThePreviousFrame() {
        var r = ACLReassembler()
        _ = r.feed(start(5, "0a 00 04 00 0b 01 02"))
        let out = r.feed(start(5, "01 00 04 00 1e"))
        #expect(out.abandoned == .startWhileInProgress(handle: 5, receivedBytes: 7))
        #expect(out.issue == nil)
        #expect(out.frame == L2CAPFrame(handle: 5, channelID: .att, payload: [0x1E]))
    }

    @Test func interleavedHandlesReassembleIndependently() {
        var r = ACLReassembler()
        var frames: [L2CAPFrame] = []
        let packets = [
            start(1, "04 00 04 00 1b 01"),
            start(2, "05 00 04 00 1b"),
            cont(1, "00 aa"),
            cont(2, "02 00"),
            cont(2, "bb cc"),
        ]
        for p in packets {
            let out = r.feed(p)
            #expect(out.issues.isEmpty)
            if let f = out.frame { frames.append(f) }
        }
        #expect(frames == [
            L2CAPFrame(handle: 1, channelID: .att, payload: hx("1b 01 00 aa")),
            L2CAPFrame(handle: 2, channelID: .att, payload: hx("1b 02 00 bb cc")),
        ])
        #expect(r.handlesInProgress.isEmpty)
    }

    @Test func lengthAboveLimitIsReportedOnceAndItsContinuationsSwallowed() {
        var r = ACLReassembler(maximumPayloadLength: 8)
        let out = r.feed(start(6, "0c 00 04 00 01 02 03 04"))
        #expect(out.issue == .lengthAboveLimit(handle: 6, length: 12, limit: 8))
        #expect(r.feed(cont(6, "05 06 07 08")).issues.isEmpty)
        #expect(r.handlesInProgress == [6])
        #expect(r.feed(cont(6, "09 0a 0b 0c")).issues.isEmpty)
        #expect(!r.isInProgress(handle: 6))
        // Further continuations are strays again.
        #expect(r.feed(cont(6, "0d")).issue == .continuationWithoutStart(handle: 6, dataLength: 1))
    }

    @Test func lengthAboveLimitFoundOnceTheSplitHeaderCompletes() {
        var r = ACLReassembler(maximumPayloadLength: 8)
        _ = r.feed(start(7, "ff"))
        let out = r.feed(cont(7, "00 04 00 01 02"))
        #expect(out.issue == .lengthAboveLimit(handle: 7, length: 255, limit: 8))
        #expect(r.isInProgress(handle: 7))
    }

    @Test func frameAtTheLimitIsAccepted() {
        var r = ACLReassembler(maximumPayloadLength: 2)
        #expect(r.feed(start(8, "02 00 04 00 01 02")).frame?.payload == [1, 2][...])
    }

    @Test func resetForgetsTheIncompleteFrame() {
        var r = ACLReassembler()
        _ = r.feed(start(9, "0a 00 04 00 0b"))
        #expect(r.reset(handle: 9) == 5)
        #expect(r.reset(handle: 9) == 0)
        #expect(r.feed(cont(9, "01")).issue == .continuationWithoutStart(handle: 9, dataLength: 1))
        _ = r.feed(start(10, "0a 00"))
        r.resetAll()
        #expect(r.handlesInProgress.isEmpty)
    }

    @Test func emptyContinuationKeepsWaiting() {
        var r = ACLReassembler()
        _ = r.feed(start(11, "02 00 04 00 0b"))
        #expect(r.feed(cont(11, "")).frame == nil)
        #expect(r.feed(cont(11, "01")).frame?.payload == [0x0B, 0x01][...])
    }

    @Test func issuesDescribeThemselves() {
        let issue = ACLReassemblyIssue.overrun(handle: 0x40, announcedLength: 3, receivedLength: 4)
        #expect(issue.description.contains("0x0040"))
        #expect(issue.handle == 0x40)
    }
}

@Suite struct ACLFragmenterTests {
    // Vol 3, Part A, §7.2.1: the first fragment of an LE L2CAP PDU goes out with PB 0b00,
    // the rest with PB 0b01.
    @Test func splitsIntoFirstAndContinuingPackets() {
        let frame = L2CAPFrame(handle: 0x40, channelID: .att, payload: hx("12 2b 00 01 00 aa"))
        let packets = ACLFragmenter(maximumDataLength: 4).fragment(frame)
        #expect(packets.map(\.packetBoundary) == [.firstNonFlushable, .continuing, .continuing])
        #expect(packets.map { Array($0.data) } == [hx("06 00 04 00"), hx("12 2b 00 01"), hx("00 aa")])
        #expect(packets.allSatisfy { $0.handle == 0x40 && Int($0.header.dataTotalLength) == $0.data.count })
        #expect(packets[0].encoded == hx("40 00 04 00 06 00 04 00"))
        #expect(packets[1].encoded == hx("40 10 04 00 12 2b 00 01"))
    }

    @Test func smallFrameIsOnePacket() {
        let frame = L2CAPFrame(handle: 1, channelID: .att, payload: [0x1E])
        let packets = ACLFragmenter(maximumDataLength: 27).fragment(frame)
        #expect(packets.count == 1)
        #expect(packets.first?.encoded == hx("01 00 05 00 01 00 04 00 1e"))
    }

    @Test func firstFlagIsConfigurable() {
        let packets = ACLFragmenter(maximumDataLength: 27, firstPacketBoundary: .firstFlushable)
            .fragment(L2CAPFrame(handle: 1, channelID: .att, payload: [0x1E]))
        #expect(packets.first?.packetBoundary == .firstFlushable)
    }

    @Test func degenerateSizesStillMakeProgress() {
        let frame = L2CAPFrame(handle: 1, channelID: .att, payload: [1, 2])
        #expect(ACLFragmenter(maximumDataLength: 0).fragment(frame).count == 6)
        #expect(ACLFragmenter(maximumDataLength: -5).fragment(frame).count == 6)
        #expect(ACLFragmenter(maximumDataLength: 4).fragment(handle: 1, pdu: []).isEmpty)
    }

    @Test func fragmentThenReassembleRoundTrips() {
        for size in [1, 2, 3, 4, 5, 7, 23, 27, 251, 1000] {
            for payloadLength in [0, 1, 5, 22, 100, 517] {
                let payload = (0..<payloadLength).map { UInt8(truncatingIfNeeded: $0 &* 7) }
                let frame = L2CAPFrame(handle: 0x0ABC, channelID: L2CAPChannelID(0x0040), payload: payload)
                var r = ACLReassembler()
                var out: [L2CAPFrame] = []
                for p in ACLFragmenter(maximumDataLength: size).fragment(frame) {
                    let step = r.feed(p)
                    #expect(step.issues.isEmpty)
                    if let f = step.frame { out.append(f) }
                }
                #expect(out == [frame], "size \(size) payload \(payloadLength)")
            }
        }
    }
}
