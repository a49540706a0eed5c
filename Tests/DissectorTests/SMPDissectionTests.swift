import Foundation
import Testing
import Capture
import Dissector
import TestSupport
import Wire

/// SMP on CID 0x0006 and the HCI side of LE encryption, built from the layouts of Core Spec
/// v5.4 Vol 3, Part H, §3.5–3.6 (SMP PDUs) and Vol 4, Part E, §7.7.8, §7.7.39, §7.7.65.5,
/// §7.8.24–§7.8.25 (events and commands), checked against tshark and for key redaction.
@Suite(.ownThread) struct SMPDissectionTests {
    @Test func pduNamesAndEncryptionEvents() {
        let d = PacketDissector()
        let names = SMPPairingCapture.records().map { d.dissect($0) }.map(\.name)
        #expect(names == [
            "LE Meta: LE Connection Complete", "SMP Pairing Request", "SMP Pairing Response",
            "SMP Pairing Confirm", "SMP Pairing Confirm", "SMP Pairing Random", "SMP Pairing Random",
            "LE Enable Encryption", "Encryption Change [v1]", "SMP Encryption Information",
            "SMP Central Identification", "SMP Identity Information", "SMP Identity Address Information",
            "SMP Signing Information", "Encryption Key Refresh Complete", "Encryption Change [v2]",
            "LE Meta: LE Long Term Key Request", "LE Long Term Key Request Reply", "SMP Pairing Failed",
            "SMP Pairing Confirm",
        ])
        // Only the short Pairing Confirm is an error.
        #expect(d.statistics.decodeErrors == 1)
    }

    @Test func keysAreRedactedUnlessAsked() throws {
        let records = SMPPairingCapture.records()
        let keys = [SMPPairingCapture.ltk, SMPPairingCapture.irk, SMPPairingCapture.csrk].map { Hex.spaced($0) } + [SMPPairingCapture.ltk, SMPPairingCapture.irk, SMPPairingCapture.csrk].map { Hex.string($0) }
        for showKeys in [false, true] {
            let d = PacketDissector(options: DissectorOptions(showKeys: showKeys))
            var text = ""
            for r in records {
                let p = d.dissect(r)
                text += TextRenderer(hexDump: true).render(p) + JSONRenderer().render(p) + "\n"
            }
            for key in keys {
                #expect(text.contains(key) == showKeys, "\(key) with showKeys \(showKeys)")
            }
            #expect(text.contains("(redacted)") == !showKeys)
        }
        // With --show-keys the LTK's headline names it.
        let d = PacketDissector(options: DissectorOptions(showKeys: true))
        let p = records.map { d.dissect($0) }[9]
        #expect(p.summary == "key " + Hex.spaced(SMPPairingCapture.ltk))
        #expect(p.redactedBytes == nil)
    }

    /// tshark's SMP dissector on the same file: the same PDUs by opcode, and with --show-keys
    /// the same LTK and IRK.
    @Test func matchesTshark() throws {
        guard SharedCaptures.tsharkPath != nil else {
            Issue.record("tshark is not installed; scripts/setup installs it")
            return
        }
        let path = try SMPPairingCapture.capture()
        defer { unlink(path) }
        var tsharkOpcodes: [String] = []
        var tsharkKeys: [String] = []
        for f in try SharedCaptures.tsharkFields(path, ["-Y", "btsmp"],
                                                 fields: ["btsmp.opcode", "btsmp.long_term_key", "btsmp.id_resolving_key"]) {
            tsharkOpcodes.append(f[0])
            tsharkKeys += f.dropFirst().filter { !$0.isEmpty }.map { $0.replacingOccurrences(of: ":", with: "") }
        }
        let d = PacketDissector(options: DissectorOptions(showKeys: true))
        var ours: [String] = []
        var ourKeys: [String] = []
        for r in SMPPairingCapture.records() {
            let packet = d.dissect(r)
            guard packet.name.hasPrefix("SMP") else { continue }
            ours.append(Hex.lowerNumber(UInt8(packet.code.dropFirst(2), radix: 16) ?? 0, width: 2))
            if let key = packet.fields.entries.first(where: { $0.label == "Long Term Key" || $0.label == "Identity Resolving Key" }) {
                ourKeys.append(key.value.replacingOccurrences(of: " ", with: ""))
            }
        }
        #expect(ours == tsharkOpcodes)
        #expect(ourKeys == tsharkKeys)
        #expect(ourKeys.count == 2)
    }
}
