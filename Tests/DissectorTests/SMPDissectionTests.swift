import Foundation
import Testing
import Capture
import Dissector
import RTStackCLI
import Wire

/// SMP on CID 0x0006 and the HCI side of LE encryption, built from the layouts of Core Spec
/// v5.4 Vol 3, Part H, §3.5–3.6 (SMP PDUs) and Vol 4, Part E, §7.7.8, §7.7.39, §7.7.65.5,
/// §7.8.24–§7.8.25 (events and commands), checked against tshark and for key redaction.
@Suite struct SMPDissectionTests {
    static let ltk: [UInt8] = (0..<16).map { 0xA0 &+ UInt8($0) }
    static let irk: [UInt8] = (0..<16).map { 0x50 &+ UInt8($0) }
    static let csrk: [UInt8] = (0..<16).map { 0x30 &+ UInt8($0) }

    static func acl(_ smp: [UInt8], handle: UInt16 = 0x40) -> [UInt8] {
        let l2cap: [UInt8] = [UInt8(smp.count), 0, 0x06, 0x00] + smp
        return [UInt8(handle & 0xFF), 0x20 | UInt8(handle >> 8), UInt8(l2cap.count), 0] + l2cap
    }

    /// A legacy pairing as the central sees it, then encryption and key distribution.
    static func records() -> [CaptureRecord] {
        var t: Int64 = 1_700_000_000_000_000
        var out: [CaptureRecord] = []
        func add(_ type: H4PacketType, _ dir: Direction, _ bytes: [UInt8]) {
            t += 1000
            out.append(CaptureRecord(timestampMicros: t, direction: dir, packet: HCIPacket(type: type, bytes: bytes[...])))
        }
        // LE Connection Complete, handle 0x0040, peer C1:00:00:00:00:01 random.
        add(.event, .controllerToHost, [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x01, 0, 0, 0, 0, 0xC1,
                                        0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00])
        // §3.5.1 Pairing Request: NoInputNoOutput, no OOB, Bonding, key size 16, keys EncKey|IdKey both ways.
        add(.acl, .hostToController, acl([0x01, 0x03, 0x00, 0x01, 0x10, 0x03, 0x03]))
        // §3.5.2 Pairing Response.
        add(.acl, .controllerToHost, acl([0x02, 0x03, 0x00, 0x01, 0x10, 0x03, 0x03]))
        // §3.5.3 / §3.5.4 Confirm and Random both ways.
        add(.acl, .hostToController, acl([0x03] + [UInt8](repeating: 0x11, count: 16)))
        add(.acl, .controllerToHost, acl([0x03] + [UInt8](repeating: 0x22, count: 16)))
        add(.acl, .hostToController, acl([0x04] + [UInt8](repeating: 0x33, count: 16)))
        add(.acl, .controllerToHost, acl([0x04] + [UInt8](repeating: 0x44, count: 16)))
        // §7.8.24 LE Enable Encryption: handle, Rand 0, EDIV 0, the STK.
        add(.command, .hostToController, [0x19, 0x20, 0x1C, 0x40, 0x00] + [UInt8](repeating: 0, count: 10) + ltk)
        // §7.7.8 Encryption Change v1: success, handle 0x0040, on.
        add(.event, .controllerToHost, [0x08, 0x04, 0x00, 0x40, 0x00, 0x01])
        // §3.6.2–§3.6.6 key distribution from the peer: LTK, EDIV/Rand, IRK, identity address, CSRK.
        add(.acl, .controllerToHost, acl([0x06] + ltk))
        add(.acl, .controllerToHost, acl([0x07, 0x34, 0x12] + [1, 2, 3, 4, 5, 6, 7, 8]))
        add(.acl, .controllerToHost, acl([0x08] + irk))
        add(.acl, .controllerToHost, acl([0x09, 0x01, 0x01, 0, 0, 0, 0, 0xC1]))
        add(.acl, .controllerToHost, acl([0x0A] + csrk))
        // §7.7.39 Encryption Key Refresh Complete, §7.7.8 Encryption Change v2 (key size 16),
        // §7.7.65.5 LE Long Term Key Request, §7.8.25 its reply with the LTK.
        add(.event, .controllerToHost, [0x30, 0x03, 0x00, 0x40, 0x00])
        add(.event, .controllerToHost, [0x59, 0x05, 0x00, 0x40, 0x00, 0x01, 0x10])
        add(.event, .controllerToHost, [0x3E, 0x0D, 0x05, 0x40, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 0x34, 0x12])
        add(.command, .hostToController, [0x1A, 0x20, 0x12, 0x40, 0x00] + ltk)
        // §3.5.5 Pairing Failed: Confirm Value Failed (0x04); a PDU one octet short.
        add(.acl, .controllerToHost, acl([0x05, 0x04]))
        add(.acl, .controllerToHost, acl([0x03] + [UInt8](repeating: 0x11, count: 15)))
        return out
    }

    static func capture() throws -> String {
        var file = BtsnoopFormat.fileHeader()
        for r in records() { try BtsnoopFormat.appendRecord(r, to: &file) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-smp-\(UUID().uuidString).btsnoop").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func pduNamesAndEncryptionEvents() {
        let d = PacketDissector()
        let names = Self.records().map { d.dissect($0) }.map(\.name)
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
        let records = Self.records()
        let keys = [Self.ltk, Self.irk, Self.csrk].map { Hex.spaced($0) } + [Self.ltk, Self.irk, Self.csrk].map { Hex.string($0) }
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
        #expect(p.summary == "key " + Hex.spaced(Self.ltk))
        #expect(p.redactedBytes == nil)
    }

    @Test func decodeCommandShowsKeysOnlyWithShowKeys() async throws {
        let path = try Self.capture()
        defer { unlink(path) }
        func run(_ args: [String]) async throws -> String {
            try await CLIRun.run(["decode", path, "--no-gatt-cache"] + args).out
        }
        let plain = try await run(["--hex"])
        let shown = try await run(["--hex", "--show-keys"])
        #expect(!plain.contains(Hex.spaced(Self.irk)) && shown.contains(Hex.spaced(Self.irk)))
        #expect(plain.contains("Identity Resolving Key: (redacted)"))
        #expect(plain.contains("Long term key: (redacted)"))
        #expect(shown.contains("Long term key: " + Hex.spaced(Self.ltk)))
    }

    /// tshark's SMP dissector on the same file: the same PDUs by opcode, and with --show-keys
    /// the same LTK and IRK.
    @Test func matchesTshark() throws {
        guard SharedCaptures.tsharkPath != nil else {
            Issue.record("tshark is not installed; scripts/setup installs it")
            return
        }
        let path = try Self.capture()
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
        for r in Self.records() {
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
