import Testing
import Capture
import Dissector
import Wire

/// Credit-based channels built from the layouts of Core Spec v5.4 Vol 3, Part A: the basic
/// L2CAP header (§3.1), K-frames (§3.4.3: SDU Length in the first of an SDU), and the
/// signaling commands of §4.22–§4.28 on CID 0x0005.
@Suite struct CreditChannelTests {
    /// One ACL packet (PB 0b10) with one whole L2CAP frame on handle 0x0040.
    static func frame(_ cid: UInt16, _ payload: [UInt8]) -> [UInt8] {
        let l2cap = [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8), UInt8(cid & 0xFF), UInt8(cid >> 8)] + payload
        return [0x40, 0x20, UInt8(l2cap.count & 0xFF), UInt8(l2cap.count >> 8)] + l2cap
    }

    static func signaling(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] {
        frame(0x0005, [code, id, UInt8(data.count), 0] + data)
    }

    static func kframe(_ cid: UInt16, sduLength: Int? = nil, _ data: [UInt8]) -> [UInt8] {
        frame(cid, (sduLength.map { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } ?? []) + data)
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    final class Run {
        let d = PacketDissector()
        var t: Int64 = 1_000_000
        func tx(_ b: [UInt8]) -> DissectedPacket { feed(b, .hostToController) }
        func rx(_ b: [UInt8]) -> DissectedPacket { feed(b, .controllerToHost) }
        func feed(_ b: [UInt8], _ dir: Direction) -> DissectedPacket {
            t += 1000
            return d.dissect(CaptureRecord(timestampMicros: t, direction: dir, packet: HCIPacket(type: .acl, bytes: b)))
        }
    }

    /// The host opens two EATT channels with one request; the peer refuses the second.
    static func openedEATT() -> Run {
        let run = Run()
        // §4.25: SPSM 0x0027, MTU 64, MPS 23, 5 credits, Source CIDs 0x0040, 0x0041.
        _ = run.tx(signaling(0x17, 1, le16(0x27) + le16(64) + le16(23) + le16(5) + le16(0x40) + le16(0x41)))
        // §4.26: MTU 100, MPS 30, 5 credits, result 0x0004 (some refused), DCIDs 0x0050, 0x0000.
        _ = run.rx(signaling(0x18, 1, le16(100) + le16(30) + le16(5) + le16(4) + le16(0x50) + le16(0)))
        return run
    }

    @Test func notificationOnAnEATTChannelIsATT() {
        let run = Self.openedEATT()
        let p = run.rx(Self.kframe(0x40, sduLength: 5, [0x1B, 0x12, 0x00, 0x06, 0x48]))
        #expect(p.att?.opcode == 0x1B)
        #expect(p.att?.bearer == 0x40 && p.att?.bearerIsEnhanced == true)
        #expect(p.channel == 0x40)
        #expect(p.name == "ATT Handle Value Notification")
        #expect(TextRenderer(showFields: false).render(p).contains("ACL h=64 cid=0x0040 ATT Handle Value Notification"))
        #expect(run.d.statistics.attNotifications == 1 && run.d.statistics.eattPDUs == 1)
    }

    @Test func requestAndResponsePairOnTheirOwnBearer() {
        let run = Self.openedEATT()
        // A Read Request on EATT (to the peer's CID 0x0050) and one on CID 4, then the EATT
        // response: it answers the EATT request's handle, not the fixed channel's.
        _ = run.tx(Self.kframe(0x50, sduLength: 3, [0x0A, 0x20, 0x00]))
        _ = run.tx(Self.frame(0x0004, [0x0A, 0x30, 0x00]))
        let rsp = run.rx(Self.kframe(0x40, sduLength: 2, [0x0B, 0x99]))
        #expect(rsp.att?.handle == 0x0020)
        let fixed = run.rx(Self.frame(0x0004, [0x0B, 0x77]))
        #expect(fixed.att?.handle == 0x0030 && fixed.att?.bearer == nil)
    }

    @Test func segmentedSDUIsReassembledAcrossKFrames() {
        let run = Self.openedEATT()
        let value = (0..<30).map(UInt8.init)
        let sdu: [UInt8] = [0x1B, 0x05, 0x00] + value   // 33 octets, MPS 23 → 21 + 12
        let first = run.rx(Self.kframe(0x40, sduLength: sdu.count, Array(sdu.prefix(21))))
        #expect(first.att == nil && first.summary == "EATT: SDU 21 of 33 bytes (continues)")
        let last = run.rx(Self.kframe(0x40, Array(sdu.dropFirst(21))))
        #expect(last.att?.value.map(Array.init) == value)
        #expect(last.errors.isEmpty)
    }

    @Test func refusedChannelAndUnknownCIDsAreNotDecoded() {
        let run = Self.openedEATT()
        // 0x0041 was refused (Destination CID 0x0000): its traffic has no channel.
        let p = run.rx(Self.kframe(0x41, sduLength: 3, [0x1B, 0x05, 0x00]))
        #expect(p.att == nil)
        #expect(p.summary.contains("channel set-up not in the capture"))
        #expect(p.errors.isEmpty)
        let q = run.rx(Self.kframe(0x7F, sduLength: 3, [0x1B, 0x05, 0x00]))
        #expect(q.name == "L2CAP Dynamically allocated" && q.att == nil)
    }

    @Test func overrunningKFrameIsReportedAndTheChannelRecovers() {
        let run = Self.openedEATT()
        _ = run.rx(Self.kframe(0x40, sduLength: 10, [0x1B, 0x05, 0x00, 1, 2]))
        let bad = run.rx(Self.kframe(0x40, [9, 9, 9, 9, 9, 9, 9, 9]))
        #expect(bad.errors.first?.contains("overruns the SDU") == true)
        // The next K-frame starts a new SDU.
        let good = run.rx(Self.kframe(0x40, sduLength: 4, [0x1B, 0x05, 0x00, 7]))
        #expect(good.att?.value.map(Array.init) == [7])
        #expect(run.d.statistics.decodeErrors == 1)
    }

    @Test func firstKFrameTooShortForTheSDULength() {
        let run = Self.openedEATT()
        let p = run.rx(Self.kframe(0x40, [0x1B]))
        #expect(p.errors.first?.contains("too short for the SDU Length") == true)
    }

    @Test func disconnectionClosesTheChannel() {
        let run = Self.openedEATT()
        // §4.6/§4.7: the host disconnects its 0x0040 (peer's 0x0050): Destination CID 0x0050,
        // Source CID 0x0040; the response echoes them.
        _ = run.tx(Self.signaling(0x06, 2, Self.le16(0x50) + Self.le16(0x40)))
        _ = run.rx(Self.signaling(0x07, 2, Self.le16(0x50) + Self.le16(0x40)))
        #expect(run.rx(Self.kframe(0x40, sduLength: 3, [0x1B, 0x05, 0x00])).att == nil)
        #expect(run.tx(Self.kframe(0x50, sduLength: 3, [0x0A, 0x05, 0x00])).att == nil)
    }

    @Test func pendingResponseWaitsForTheFinalOne() {
        let run = Run()
        _ = run.rx(Self.signaling(0x17, 3, Self.le16(0x27) + Self.le16(64) + Self.le16(64) + Self.le16(5) + Self.le16(0x45)))
        // §4.26 result 0x000E: authentication pending; then success with DCID 0x0060.
        _ = run.tx(Self.signaling(0x18, 3, Self.le16(0) + Self.le16(0) + Self.le16(0) + Self.le16(0x0E) + Self.le16(0)))
        _ = run.tx(Self.signaling(0x18, 3, Self.le16(80) + Self.le16(64) + Self.le16(5) + Self.le16(0) + Self.le16(0x60)))
        // The peer asked: its CID 0x0045 receives host → controller traffic, the host's 0x0060 the other way.
        let p = run.tx(Self.kframe(0x45, sduLength: 3, [0x1B, 0x09, 0x00]))
        #expect(p.att?.bearer == 0x60)
        #expect(run.rx(Self.kframe(0x60, sduLength: 3, [0x0A, 0x09, 0x00])).att?.opcode == 0x0A)
    }

    @Test func leCreditBasedChannelToAnotherSPSMShowsItsSDUs() {
        let run = Run()
        // §4.22 / §4.23: SPSM 0x0080, SCID 0x0040 from the host; DCID 0x0047 from the peer.
        _ = run.tx(Self.signaling(0x14, 4, Self.le16(0x80) + Self.le16(0x40) + Self.le16(200) + Self.le16(40) + Self.le16(3)))
        _ = run.rx(Self.signaling(0x15, 4, Self.le16(0x47) + Self.le16(200) + Self.le16(40) + Self.le16(3) + Self.le16(0)))
        let p = run.tx(Self.kframe(0x47, sduLength: 4, [1, 2, 3, 4]))
        #expect(p.name == "L2CAP K-frame" && p.summary == "SPSM 0x0080: SDU 4 bytes")
        #expect(p.att == nil)
    }

    @Test func reconfigureChangesTheReceiversMTU() {
        let run = Self.openedEATT()
        // §4.27 from the host: its own CID 0x0040 now receives up to MTU 300, MPS 60.
        _ = run.tx(Self.signaling(0x19, 5, Self.le16(300) + Self.le16(60) + Self.le16(0x40)))
        let p = run.rx(Self.kframe(0x40, sduLength: 3, [0x1B, 0x05, 0x00]))
        #expect(p.fields.value(of: "Channel") == "CID 0x0040, SPSM 0x0027 (EATT), enhanced credit based, MTU 300, MPS 60")
    }

    @Test func adaptersKeepTheirOwnConnections() {
        // The same handle on hci0 and hci1 (btvirt numbers both sides alike): a channel opened
        // on hci0 does not exist on hci1.
        let d = PacketDissector(options: DissectorOptions(showsAdapter: true))
        func rec(_ b: [UInt8], _ dir: Direction, _ adapter: UInt16) -> DissectedPacket {
            d.dissect(CaptureRecord(timestampMicros: 1, direction: dir, packet: HCIPacket(type: .acl, bytes: b), adapterIndex: adapter))
        }
        _ = rec(Self.signaling(0x14, 1, Self.le16(0x27) + Self.le16(0x40) + Self.le16(64) + Self.le16(64) + Self.le16(3)), .hostToController, 0)
        _ = rec(Self.signaling(0x15, 1, Self.le16(0x50) + Self.le16(64) + Self.le16(64) + Self.le16(3) + Self.le16(0)), .controllerToHost, 0)
        #expect(rec(Self.kframe(0x40, sduLength: 3, [0x1B, 0x05, 0x00]), .controllerToHost, 1).att == nil)
        let p = rec(Self.kframe(0x40, sduLength: 3, [0x1B, 0x05, 0x00]), .controllerToHost, 0)
        #expect(p.att?.opcode == 0x1B && p.adapterIndex == 0)
        #expect(TextRenderer(showFields: false).render(p).contains(" > hci0 ACL h=64 cid=0x0040 "))
    }
}
