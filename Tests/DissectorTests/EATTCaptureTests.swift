import Foundation
import Testing
import Capture
import Dissector
import Wire
import TestSupport

/// ATT over credit-based channels, from a capture Bumble made on both sides
/// (Captures/eatt-bumble.btsnoop, `scripts/record-captures eatt`): two EATT bearers opened
/// with one Credit Based Connection Request, one ATT bearer on an LE credit-based channel,
/// plain SDUs on a third, K-frames segmented at MPS 23 and ACL fragments of 27 octets.
///
/// Two independent counts to agree with: tshark (which follows LE credit-based channels and,
/// told `-d btl2cap.psm==0x0027,btatt`, decodes ATT on them; Debian's tshark 4.0 knows no
/// Credit Based Connection Request and so cannot decode the EATT bearers), and the Bumble
/// central's own count of the ATT PDUs it sent and received on each kind of bearer.
@Suite(.ownThread) struct EATTCaptureTests {
    static let capture = SharedCaptures.packageRoot.appendingPathComponent("Captures/eatt-bumble.btsnoop").path
    static let sidecar = SharedCaptures.packageRoot.appendingPathComponent("Captures/eatt-bumble.json").path

    /// ATT PDUs by bearer kind ("fixed", "le", "enhanced") and opcode ("0x1b").
    static func decodedCounts() throws -> (counts: [String: [String: Int]], dissector: PacketDissector, packets: [DissectedPacket]) {
        let dissector = PacketDissector(collectFields: true)
        var counts: [String: [String: Int]] = [:]
        var packets: [DissectedPacket] = []
        for r in try SharedCaptures.records(capture) {
            let p = dissector.dissect(r)
            packets.append(p)
            guard let att = p.att else { continue }
            let kind = att.bearer == nil ? "fixed" : (att.bearerIsEnhanced ? "enhanced" : "le")
            counts[kind, default: [:]][Hex.lowerNumber(att.opcode, width: 2), default: 0] += 1
        }
        return (counts, dissector, packets)
    }

    @Test func decodesWithoutErrorsAndReassemblesSDUs() throws {
        let (counts, dissector, packets) = try Self.decodedCounts()
        #expect(dissector.statistics.decodeErrors == 0, "\(dissector.statistics.errorSamples)")
        #expect(packets.allSatisfy { !$0.name.hasPrefix("L2CAP Dynamically") }, "a channel without set-up")
        // The 71-octet name read on an EATT bearer came in 4 K-frames of MPS 23.
        let name = Array("EATT heart-rate sensor with a name longer than one K-frame of 23 octets".utf8)
        let reads = packets.compactMap { $0.att }.filter { $0.opcode == 0x0B && $0.value.map(Array.init) == name }
        #expect(reads.count == 2)   // once on EATT, once on the LE credit-based channel
        #expect(reads.contains { $0.bearerIsEnhanced } && reads.contains { !$0.bearerIsEnhanced && $0.bearer != nil })
        // Ten heart-rate notifications, all on the first EATT bearer, decoded as such.
        let notes = packets.filter { $0.att?.opcode == 0x1B }
        #expect(notes.count == 10)
        #expect(notes.allSatisfy { $0.att?.bearerIsEnhanced == true && $0.channel == 0x0040 })
        #expect(notes.first?.att?.characteristic == .heartRateMeasurement)
        #expect(notes.last?.att?.decodedValue == "70 bpm")
        #expect(dissector.statistics.eattPDUs == counts["enhanced"]?.values.reduce(0, +))
        // Plain SDUs of 10, 90 and 165 octets on SPSM 0x0080, whole after reassembly.
        let sdus = packets.filter { $0.name == "L2CAP K-frame" && $0.summary.hasPrefix("SPSM 0x0080: SDU") && !$0.summary.contains("of") }
        #expect(sdus.map(\.summary) == ["SPSM 0x0080: SDU 10 bytes", "SPSM 0x0080: SDU 90 bytes, reassembled",
                                        "SPSM 0x0080: SDU 165 bytes, reassembled"])
    }

    /// The enhanced bearers against what the Bumble central counted on them.
    @Test func enhancedBearerCountsMatchThePeer() throws {
        let (counts, _, _) = try Self.decodedCounts()
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.sidecar))) as? [String: Any]
        let sides = try #require(json?["att_pdus"] as? [String: [String: Int]])
        for kind in ["enhanced", "le"] {
            var expected: [String: Int] = [:]
            for direction in ["tx", "rx"] {
                for (opcode, n) in sides["\(kind) \(direction)"] ?? [:] { expected[opcode, default: 0] += n }
            }
            #expect(counts[kind] ?? [:] == expected, "\(kind) bearers")
        }
        #expect(counts["enhanced"]?["0x1b"] == 10)
    }

    /// The fixed channel and the LE credit-based bearer against tshark, opcode by opcode.
    @Test func fixedAndLECreditBasedCountsMatchTshark() throws {
        guard SharedCaptures.tsharkPath != nil else {
            Issue.record("tshark is not installed; scripts/setup installs it")
            return
        }
        var tsharkCounts: [String: [String: Int]] = [:]
        for f in try SharedCaptures.tsharkFields(Self.capture, ["-d", "btl2cap.psm==0x0027,btatt", "-Y", "btatt"],
                                                 fields: ["btl2cap.cid", "btatt.opcode"]) where f.count == 2 {
            tsharkCounts[f[0] == "0x0004" ? "fixed" : "le", default: [:]][f[1], default: 0] += 1
        }
        let (counts, _, _) = try Self.decodedCounts()
        #expect(!tsharkCounts.isEmpty)
        #expect(counts["fixed"] == tsharkCounts["fixed"])
        #expect(counts["le"] == tsharkCounts["le"])
        // What tshark 4.0 cannot see: the enhanced bearers' PDUs, none of which it shows as ATT.
        #expect((counts["enhanced"]?.values.reduce(0, +) ?? 0) > 30)
    }
}
