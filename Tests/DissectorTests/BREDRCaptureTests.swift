import Foundation
import Testing
import Capture
import Dissector
import Wire
import TestSupport

/// BR/EDR links: ATT over a PSM 0x001F channel in a capture Bumble made on both sides
/// (Captures/att-bredr-bumble.btsnoop, `scripts/record-captures att-bredr`), and the
/// signaling and channels of two phone captures (an A2DP headset, an SPP speaker) that nobody
/// on this project wrote.
@Suite(.ownThread) struct BREDRCaptureTests {
    static let capture = SharedCaptures.packageRoot.appendingPathComponent("Captures/att-bredr-bumble.btsnoop").path
    static let sidecar = SharedCaptures.packageRoot.appendingPathComponent("Captures/att-bredr-bumble.json").path

    static func decode(_ path: String) throws -> (PacketDissector, [DissectedPacket]) {
        let dissector = PacketDissector(collectFields: true)
        let packets = try SharedCaptures.records(path).map { dissector.dissect($0) }
        return (dissector, packets)
    }

    @Test func attOverBREDRIsDecodedAsOnLE() throws {
        let (dissector, packets) = try Self.decode(Self.capture)
        #expect(dissector.statistics.decodeErrors == 0, "\(dissector.statistics.errorSamples)")
        #expect(packets.allSatisfy { !$0.summary.contains("not in the capture") })
        let att = packets.filter { $0.att != nil }
        #expect(!att.isEmpty && att.allSatisfy { $0.att?.transport == .brEdr && $0.att?.bearer == 0x0040 && $0.channel == 0x0040 })
        // Discovery on the channel labels the notifications, and their values decode.
        let notes = att.filter { $0.att?.opcode == 0x1B }
        #expect(notes.count == 12)
        #expect(notes.allSatisfy { $0.att?.characteristic == .heartRateMeasurement })
        #expect(notes.first?.att?.decodedValue == "61 bpm" && notes.last?.att?.decodedValue == "72 bpm")
        // The 91-octet read came in ACL fragments and was answered on the same bearer.
        let read = try #require(att.first { $0.att?.opcode == 0x0B })
        #expect(read.att?.value.map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("Dual-mode watch") == true)
        #expect(read.att?.handle != nil)
        // The link is BR/EDR from its Connection Complete, and the summary counts per transport.
        let stats = dissector.statistics
        #expect(stats.transports.values.contains(.brEdr))
        #expect(stats.attPDUs == att.count && stats.brEdrATTPDUs == att.count)
        #expect(stats.text.contains("ATT PDUs: \(att.count) (LE 0, BR/EDR \(att.count))"))
        #expect(stats.text.contains("(BR/EDR): 12 ATT notifications"))
        // JSON names the bearer.
        let json = JSONRenderer().render(notes[0])
        #expect(json.contains("\"bearer\":\"br-edr\",\"bearer_cid\":64"))
    }

    @Test func attPDUsMatchWhatTheBumbleCentralCounted() throws {
        let (_, packets) = try Self.decode(Self.capture)
        var counts: [String: [String: Int]] = [:]
        for p in packets {
            guard let att = p.att else { continue }
            counts[p.direction == .hostToController ? "tx" : "rx", default: [:]][Hex.lowerNumber(att.opcode, width: 2), default: 0] += 1
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.sidecar))) as? [String: Any]
        let expected = try #require(json?["att_pdus"] as? [String: [String: Int]])
        #expect(counts == expected)
    }

    @Test func signalingAndTheEnhancedRetransmissionChannelAreNamed() throws {
        let (_, packets) = try Self.decode(Self.capture)
        let signaling = packets.filter { $0.name.hasPrefix("L2CAP Signaling") }
        #expect(signaling.contains { $0.name == "L2CAP Signaling Connection Request" && $0.summary == "ident 1 psm ATT (0x001f) scid 0x0040" })
        #expect(signaling.contains { $0.name == "L2CAP Signaling Configuration Request" && $0.summary.contains("MTU 256") })
        #expect(signaling.contains { $0.summary.contains("Enhanced Retransmission mode") })
        let ertm = packets.filter { $0.summary.hasPrefix("PSM 0x1001: ") }
        #expect(ertm.filter { $0.summary.contains("I-frame") }.count == 3)
        #expect(ertm.contains { $0.summary.contains("S-frame RR") })
        #expect(ertm.allSatisfy { $0.name == "L2CAP Dynamic PSM" && $0.fields.value(of: "FCS") != nil })
        let sdu = try #require(ertm.first { $0.summary.contains("I-frame") && $0.summary.hasSuffix("40 bytes") })
        #expect(sdu.fields.value(of: "Data")?.hasPrefix("00 01 02 03") == true)
    }

    /// The phone captures: every signaling packet decodes (tshark counts them the same), and
    /// no channel is left without its PSM.
    @Test(arguments: ["a2dp-headset-android.btsnoop", "spp-speaker-android.btsnoop"])
    func phoneCaptureChannelsAreFollowed(name: String) throws {
        guard let path = SharedCaptures.path(name) else {
            print("skipped: ../shared/captures is absent (a fresh clone has no phone captures)")
            return
        }
        let (dissector, packets) = try Self.decode(path)
        #expect(dissector.statistics.decodeErrors == 0, "\(dissector.statistics.errorSamples)")
        let signaling = packets.filter { $0.name.hasPrefix("L2CAP Signaling") }
        #expect(signaling.allSatisfy { $0.name != "L2CAP Signaling" || $0.summary.contains(",") })
        if SharedCaptures.tsharkPath != nil {
            #expect(signaling.count == (try SharedCaptures.tsharkCount(path, filter: "btl2cap.cid==0x0001")))
        }
        let dynamic = packets.filter { $0.channel != nil }
        #expect(!dynamic.isEmpty)
        #expect(dynamic.allSatisfy { !$0.summary.contains("not in the capture") }, "\(dynamic.first { $0.summary.contains("not in the capture") }?.summary ?? "")")
        let names = Set(dynamic.map(\.name))
        for expected in ["L2CAP SDP", "L2CAP RFCOMM", "L2CAP AVDTP", "L2CAP AVCTP"] {
            #expect(names.contains(expected), "\(names.sorted())")
        }
        if name.hasPrefix("a2dp") {
            // The media channel carries most of the capture.
            #expect(dynamic.filter { $0.name == "L2CAP AVDTP media" }.count > 1_000)
            // AVCTP was first asked for in Enhanced Retransmission mode, refused, then
            // configured in Basic mode: its frames are B-frames.
            #expect(signaling.contains { $0.summary.contains("Enhanced Retransmission mode") })
            let avctp = dynamic.filter { $0.name == "L2CAP AVCTP" }
            #expect(!avctp.isEmpty && avctp.allSatisfy { !$0.summary.contains("-frame") })
        } else {
            // AVCTP browsing is configured in Enhanced Retransmission mode (it carries no data).
            #expect(signaling.contains { $0.summary.contains("Enhanced Retransmission mode") })
        }
        #expect(dissector.statistics.transports.values.allSatisfy { $0 == .brEdr })
    }
}
