import Testing
@testable import HostCore
import Wire

/// ACL flow control, fragmentation and the inbound path (Core Spec v5.4 Vol 4, Part E, §4.1.1,
/// §5.4.2, §7.7.19; Vol 3, Part A, §7.2).
@Suite struct HostACLTests {
    /// ATT_WRITE_CMD (Vol 3, Part F, §3.4.5.3): opcode 0x52, handle, value.
    static func writeCommand(handle: UInt16, value: [UInt8]) -> [UInt8] {
        [0x52, UInt8(handle & 0xFF), UInt8(handle >> 8)] + value
    }

    @Test func creditsNeverExceededAndLinksServedRoundRobin() {
        let (host, fake) = readyHost()
        let a = connectLink(host, fake, peer(1), handle: 0x0001)
        let b = connectLink(host, fake, peer(2), handle: 0x0002)
        let c = connectLink(host, fake, peer(3), handle: 0x0003)
        fake.clearRecord()
        // 200 writes: 100 on a, then 50 on b and 50 on c.
        for i in 0..<100 { host.sendATT(Self.writeCommand(handle: 0x10, value: [UInt8(i)]), on: a) }
        for i in 0..<50 { host.sendATT(Self.writeCommand(handle: 0x10, value: [UInt8(i)]), on: b) }
        for i in 0..<50 { host.sendATT(Self.writeCommand(handle: 0x10, value: [UInt8(i)]), on: c) }
        // The first 64 go at once, shared round robin (all were queued before the driver took
        // the host's output): no link takes more than one packet ahead of another.
        #expect(fake.aclSent.count == 64)
        #expect(fake.pulledHost.aclCreditsInUse == 64)
        #expect(fake.pulledHost.aclPacketsQueued == 136)
        let perLink = [0x0001, 0x0002, 0x0003].map { h in fake.aclSent.filter { $0.handle == h }.count }
        #expect(perLink.max()! - perLink.min()! <= 1)

        // Then credits come back three at a time: one packet per link per turn.
        fake.completePackets([(0x0001, 3)])
        #expect(fake.aclSent.suffix(3).map(\.handle) == [0x0002, 0x0003, 0x0001])
        var rounds = 0
        while fake.pulledHost.aclPacketsQueued > 0 && rounds < 200 {
            rounds += 1
            fake.completeAllPackets()
            #expect(fake.pulledHost.aclCreditsInUse <= 64)
            #expect(fake.pulledHost.aclCreditsInUse >= 0)
        }
        #expect(fake.aclSent.count == 200)
        #expect(fake.maxACLInFlight == 64)
        #expect(fake.violations.isEmpty)
        // Per link, the order of its writes is kept.
        for (handle, n) in [(UInt16(1), 100), (2, 50), (3, 50)] {
            let values = fake.l2capSent.filter { $0.handle == handle }.map { $0.payload.last ?? 0 }
            #expect(values == (0..<n).map { UInt8($0) })
        }
        // While all three had packets queued, turns alternated a, b, c.
        let afterFirst = fake.aclSent.dropFirst(64).prefix(60).map(\.handle)
        for k in stride(from: 0, to: 57, by: 3) {
            #expect(Set(afterFirst[k..<(k + 3)]) == [1, 2, 3])
        }
        fake.completeAllPackets()
        #expect(fake.pulledHost.aclCreditsInUse == 0)
    }

    @Test func hundredByteATTPDUFragmentedTo27ByteACL() throws {
        let (host, fake) = readyHost()
        let link = connectLink(host, fake, peer(1), handle: 0x0042)
        fake.clearRecord()
        let pdu = Self.writeCommand(handle: 0x0021, value: (0..<97).map { UInt8($0) })
        #expect(pdu.count == 100)
        host.sendATT(pdu, on: link)
        // 4 + 100 = 104 L2CAP bytes → 27 + 27 + 27 + 23.
        #expect(fake.aclSent.map(\.data.count) == [27, 27, 27, 23])
        #expect(fake.aclSent.map(\.packetBoundary) == [.firstNonFlushable, .continuing, .continuing, .continuing])
        #expect(fake.aclSent.allSatisfy { $0.handle == 0x0042 })
        // Basic header: length 100, CID 0x0004 (Vol 3, Part A, §3.1).
        #expect(Array(fake.aclSent[0].data.prefix(4)) == [100, 0, 0x04, 0x00])
        let frames = fake.l2capSent
        #expect(frames.count == 1)
        #expect(frames.first?.channel == 0x0004)
        #expect(frames.first?.payload == pdu)
        // The same cut as ACLFragmenter.
        let reference = ACLFragmenter(maximumDataLength: 27)
            .fragment(L2CAPFrame(handle: 0x0042, channelID: .att, payload: pdu))
        #expect(fake.aclSent.map { Array($0.data) } == reference.map { Array($0.data) })
        #expect(fake.aclSent.map(\.packetBoundary) == reference.map(\.packetBoundary))
        #expect(fake.pulledHost.aclCreditsInUse == 4)
    }

    @Test func numberOfCompletedPacketsReturnsCredits() {
        let (host, fake) = readyHost({ $0.aclLimits = ACLLimits(dataLength: 27, packetCount: 4) })
        let link = connectLink(host, fake, peer(1), handle: 0x0001)
        for i in 0..<10 { host.sendATT(Self.writeCommand(handle: 1, value: [UInt8(i)]), on: link) }
        #expect(fake.pulledHost.aclCreditCapacity == 4)
        #expect(fake.pulledHost.aclCreditsInUse == 4)
        #expect(fake.aclSent.count == 4)
        fake.completePackets([(0x0001, 2)])
        #expect(fake.aclSent.count == 6)
        #expect(fake.pulledHost.aclCreditsInUse == 4)
        #expect(fake.pulledHost.status(of: link)?.aclPacketsQueued == 4)
        fake.completePackets([(0x0001, 4)])
        fake.completePackets([(0x0001, 4)])
        #expect(fake.aclSent.count == 10)
        fake.completePackets([(0x0001, 2)])
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        #expect(fake.violations.isEmpty)
    }

    @Test func disconnectionReturnsInFlightCreditsAndDropsQueued() {
        let (host, fake) = readyHost({ $0.aclLimits = ACLLimits(dataLength: 27, packetCount: 8) })
        let a = connectLink(host, fake, peer(1), handle: 0x0001)
        let b = connectLink(host, fake, peer(2), handle: 0x0002)
        for i in 0..<6 { host.sendATT(Self.writeCommand(handle: 1, value: [UInt8(i)]), on: a) }
        for i in 0..<6 { host.sendATT(Self.writeCommand(handle: 1, value: [UInt8(i)]), on: b) }
        // The 8 credits are shared round robin: 4 each in flight, 2 each waiting.
        #expect(fake.pulledHost.aclCreditsInUse == 8)
        #expect(fake.pulledHost.status(of: a)?.aclPacketsInFlight == 4)
        #expect(fake.pulledHost.status(of: a)?.aclPacketsQueued == 2)
        fake.clearRecord()
        // a goes away with 4 in flight: its credits come back without NOCP, its queued packets are
        // dropped, and b's wait ends.
        fake.disconnectionComplete(handle: 0x0001, reason: .connectionTimeout)
        #expect(fake.pulledHost.aclCreditsInUse == 6)
        #expect(fake.aclSent.map(\.handle) == [0x0002, 0x0002])
        #expect(fake.pulledHost.aclPacketsQueued == 0)
        // A late NOCP for the gone handle is a warning, not a credit.
        fake.completePackets([(0x0001, 6)])
        #expect(fake.pulledHost.aclCreditsInUse == 6)
        #expect(fake.hasWarning(containing: "no open link"))
    }

    @Test func queuedPacketsOfADisconnectedLinkAreDropped() {
        let (host, fake) = readyHost({ $0.aclLimits = ACLLimits(dataLength: 27, packetCount: 2) })
        let a = connectLink(host, fake, peer(1), handle: 0x0001)
        for i in 0..<5 { host.sendATT(Self.writeCommand(handle: 1, value: [UInt8(i)]), on: a) }
        #expect(fake.pulledHost.aclPacketsQueued == 3)
        fake.disconnectionComplete(handle: 0x0001, reason: .remoteUserTerminatedConnection)
        #expect(fake.pulledHost.aclPacketsQueued == 0)
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        // The controller may give the same handle to the next connection: nothing old leaks.
        let b = connectLink(host, fake, peer(2), handle: 0x0001)
        fake.clearRecord()
        host.sendATT(Self.writeCommand(handle: 1, value: [0xBB]), on: b)
        #expect(fake.l2capSent.map(\.payload) == [Self.writeCommand(handle: 1, value: [0xBB])])
    }

    @Test func excessCompletionsAreClampedWithAWarning() {
        let (host, fake) = readyHost()
        let link = connectLink(host, fake, peer(1), handle: 0x0001)
        host.sendATT(Self.writeCommand(handle: 1, value: [1]), on: link)
        host.sendATT(Self.writeCommand(handle: 1, value: [2]), on: link)
        #expect(fake.pulledHost.aclCreditsInUse == 2)
        fake.completePackets([(0x0001, 5)])
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        #expect(fake.hasWarning(containing: "only 2 were in flight"))
    }

    @Test func completionsForUnknownHandleAreWarnings() {
        let (_, fake) = readyHost()
        fake.completePackets([(0x0EEE, 3)])
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        #expect(fake.warnings.count == 1)
        #expect(fake.hasWarning(containing: "0x0eee") || fake.hasWarning(containing: "0x0EEE"))
    }

    @Test func fragmentedInboundATTIsReassembled() {
        let (host, fake) = readyHost()
        let link = connectLink(host, fake, peer(1), handle: 0x0005)
        var seen: [(LinkID, [UInt8])] = []
        host.attObserver = { seen.append(($0, Array($1))) }
        // ATT_HANDLE_VALUE_NTF (Vol 3, Part F, §3.4.7.1): 0x1B, handle 0x000E, 40 value bytes,
        // in an L2CAP frame (length 43, CID 4) split over three ACL packets.
        let ntf: [UInt8] = [0x1B, 0x0E, 0x00] + (0..<40).map { UInt8($0) }
        let l2cap: [UInt8] = [43, 0, 0x04, 0x00] + ntf
        fake.acl(handle: 0x0005, boundary: .firstFlushable, Array(l2cap[0..<20]))
        #expect(seen.isEmpty)
        fake.acl(handle: 0x0005, boundary: .continuing, Array(l2cap[20..<40]))
        #expect(seen.isEmpty)
        fake.acl(handle: 0x0005, boundary: .continuing, Array(l2cap[40...]))
        #expect(seen.count == 1)
        #expect(seen.first?.0 == link)
        #expect(seen.first?.1 == ntf)
        // A single-packet frame (what Bumble sends, PB 0b10) arrives as it is.
        fake.l2cap(handle: 0x0005, channel: 4, [0x1B, 0x0E, 0x00, 0x2A])
        #expect(seen.last?.1 == [0x1B, 0x0E, 0x00, 0x2A])
        #expect(fake.warnings.isEmpty)
    }

    @Test func badFragmentationIsAWarning() {
        let (host, fake) = readyHost()
        connectLink(host, fake, peer(1), handle: 0x0005)
        var seen = 0
        host.attObserver = { _, _ in seen += 1 }
        fake.acl(handle: 0x0005, boundary: .continuing, [1, 2, 3])
        #expect(fake.hasWarning(containing: "without a start"))
        // More bytes than the L2CAP length says.
        fake.acl(handle: 0x0005, [1, 0, 0x04, 0x00, 0x1B, 0xFF])
        #expect(fake.hasWarning(containing: "L2CAP reassembly"))
        #expect(seen == 0)
    }

    @Test func unknownHandleAndMalformedACLAreWarnings() {
        let (host, fake) = readyHost()
        fake.l2cap(handle: 0x0077, channel: 4, [0x1B, 0x01, 0x00, 0x01])
        #expect(fake.hasWarning(containing: "no connection"))
        // Data_Total_Length 9 with 2 bytes present.
        host.receive(HCIPacket(type: .acl, bytes: [0x01, 0x20, 0x09, 0x00, 0xAA, 0xBB]), at: 0)
        #expect(fake.warnings.last?.bytes == [0x01, 0x20, 0x09, 0x00, 0xAA, 0xBB])
    }

    @Test func unusedChannelIsAWarning() {
        let (host, fake) = readyHost()
        connectLink(host, fake, peer(1), handle: 0x0005)
        fake.l2cap(handle: 0x0005, channel: 0x0041, [1, 2, 3])
        #expect(fake.hasWarning(containing: "does not use"))
        #expect(fake.aclSent.isEmpty)
    }

    @Test func pairingRequestAnsweredPairingNotSupported() {
        let (host, fake) = readyHost()
        connectLink(host, fake, peer(1), handle: 0x0005)
        fake.clearRecord()
        // SMP Pairing Request (Vol 3, Part H, §3.5.1): IO NoInputNoOutput, no OOB, bonding,
        // key size 16, distributions.
        fake.l2cap(handle: 0x0005, channel: 6, [0x01, 0x03, 0x00, 0x01, 0x10, 0x07, 0x07])
        // Pairing Failed (§3.5.5), reason Pairing Not Supported (0x05).
        #expect(fake.l2capSent.map(\.channel) == [0x0006])
        #expect(fake.l2capSent.first?.payload == [0x05, 0x05])
        // Security Request (§3.5.7) gets the same answer.
        fake.l2cap(handle: 0x0005, channel: 6, [0x0B, 0x01])
        #expect(fake.l2capSent.count == 2)
        #expect(fake.l2capSent.last?.payload == [0x05, 0x05])
        _ = host
    }

    @Test func attFromALinkThatIsNotConnectedIsDropped() {
        let (host, fake) = readyHost()
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        host.sendATT([0x52, 0x01, 0x00, 0x01], on: link)
        #expect(fake.aclSent.isEmpty)
        #expect(fake.hasWarning(containing: "not connected"))
    }

    @Test func aclSchedulerBoundariesStayBounded() {
        // Direct checks of the scheduler invariants with odd sizes.
        var s = ACLScheduler(capacity: 3, dataLength: 5)
        s.open(1)
        let queued = s.enqueue(handle: 1, channel: .att, payload: [1, 2, 3, 4, 5, 6, 7][...])
        let unknown = s.enqueue(handle: 9, channel: .att, payload: [1][...])
        #expect(queued)
        #expect(!unknown)
        var packets: [HCIPacket] = []
        while let p = s.next() { packets.append(p) }
        // 11 L2CAP bytes in 5-byte fragments, but only 3 credits.
        #expect(packets.count == 3)
        #expect(s.inUse == 3)
        let excess = s.completed(handle: 1, count: 10)
        #expect(excess == .excess(returned: 3, reported: 10))
        #expect(s.inUse == 0)
        let unknownHandle = s.completed(handle: 2, count: 1)
        #expect(unknownHandle == .unknownHandle)
        while let p = s.next() { packets.append(p) }
        let data = packets.compactMap { try? ACLPacket($0) }.flatMap { Array($0.data) }
        #expect(data == [7, 0, 4, 0, 1, 2, 3, 4, 5, 6, 7])
        let closed = s.close(1)
        #expect(closed.returned == 0 && closed.dropped == 0)
        #expect(s.inUse == 0)
    }
}
