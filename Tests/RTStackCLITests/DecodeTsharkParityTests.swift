import Foundation
import Testing
import TestSupport

/// `rtstack decode --json` against tshark on every capture there is: the phone captures in
/// `../shared/captures` (LE and BR/EDR) and the project's own recordings in `Captures/`. The
/// two decoders must see the same packets, the same ACL packets, the same ATT PDUs and the
/// same notifications — on LE, on EATT's LE credit-based channels, and on BR/EDR channels to
/// PSM 0x001F, which both follow from the signaling in the capture.
///
/// tshark is told `-d btl2cap.psm==0x0027,btatt` so that it decodes ATT on LE credit-based
/// channels to the EATT SPSM; Debian's tshark 4.0 knows no Credit Based Connection Request
/// (0x17), so the PDUs rtstack finds on enhanced bearers (`"bearer":"eatt"`) are left out here
/// and checked against the Bumble peer's own count in EATTCaptureTests.
@Suite(.ownThread) struct DecodeTsharkParityTests {
    static let extensions: Set<String> = ["btsnoop", "log", "pcap", "pcapng"]

    static func captures(in folder: URL?) -> [String] {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension) }.sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    /// Every capture file of `Captures/` and, where present, `../shared/captures`.
    static let all: [String] = captures(in: SharedCaptures.packageRoot.appendingPathComponent("Captures"))
        + captures(in: SharedCaptures.folder)

    struct Counts: Equatable, CustomStringConvertible {
        var packets = 0, acl = 0, att = 0, notifications = 0
        var description: String { "\(packets) packets, \(acl) ACL, \(att) ATT, \(notifications) notifications" }
    }

    @Test func theCapturesIncludeBREDRWithATT() {
        #expect(Self.all.contains { $0.hasSuffix("Captures/att-bredr-bumble.btsnoop") })
        if SharedCaptures.folder == nil {
            print("note: ../shared/captures is absent (a fresh clone has no phone captures); only Captures/ is compared")
        } else {
            #expect(Self.all.contains { $0.hasSuffix("a2dp-headset-android.btsnoop") })
        }
    }

    @Test(arguments: all)
    func decodeJSONAgreesWithTshark(path: String) async throws {
        guard SharedCaptures.tsharkPath != nil else {
            print("skipped: tshark is not installed (scripts/setup installs it); \(path) not compared")
            return
        }
        let run = try await CLIRun.run(["decode", "--json", path])
        #expect(run.code == .success, "\(run.err)")
        var ours = Counts()
        var eatt = 0
        var brEdr = 0
        var summary: [String: Any]?
        for line in run.out.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if object["summary"] as? Bool == true {
                summary = object
                continue
            }
            if object["type"] as? String == "monitor" { continue }
            ours.packets += 1
            if object["type"] as? String == "acl" { ours.acl += 1 }
            guard let att = object["att"] as? [String: Any] else { continue }
            if att["bearer"] as? String == "br-edr" { brEdr += 1 }
            if att["bearer"] as? String == "eatt" {
                eatt += 1
                continue
            }
            ours.att += 1
            if att["opcode"] as? Int == 0x1B { ours.notifications += 1 }
        }
        let eattArgument = ["-d", "btl2cap.psm==0x0027,btatt"]
        func tshark(_ filter: String?) throws -> Int {
            try SharedCaptures.tsharkFields(path, eattArgument + (filter.map { ["-Y", $0] } ?? []), fields: ["frame.number"]).count
        }
        let theirs = Counts(packets: try tshark(nil), acl: try tshark("bthci_acl"), att: try tshark("btatt"),
                            notifications: try tshark("btatt.opcode==0x1b"))
        #expect(ours == theirs, "\(URL(fileURLWithPath: path).lastPathComponent): rtstack \(ours), tshark \(theirs)")
        // The summary line counts the same, per transport.
        let s = try #require(summary, "no summary line")
        #expect(s["packets"] as? Int == ours.packets)
        #expect(s["att_pdus"] as? Int == ours.att + eatt)
        let perTransport = s["att_pdus_per_transport"] as? [String: Int]
        #expect(perTransport?["br-edr"] == brEdr)
        #expect(perTransport?["le"] == ours.att + eatt - brEdr)
        #expect(s["decode_errors"] as? Int == 0, "\(run.out.suffix(400))")
    }
}
