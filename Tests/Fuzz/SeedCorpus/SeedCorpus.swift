// Builds the seed corpus of every fuzz harness from real captures (built and run by
// scripts/fuzz; not a SwiftPM target).
//
// Usage: seed-corpus OUTPUT-DIRECTORY CAPTURE…
// Each capture is read with CaptureReader and cut into inputs in each harness's own format:
// H4 streams, single events and commands, ACL packet runs, ATT and signaling payloads from the
// reassembled frames, advertising data from the reports, small btsnoop/pcap/pcapng files,
// dissector record runs and host step scripts (controller-to-host traffic replayed on the
// harness's connected handle). Duplicates are dropped; each harness gets at most a few hundred
// seeds, so a 60 s run starts quickly.
import Glibc
import Wire
import Capture

private let harnesses = ["h4-framer", "hci-event", "hci-command", "acl-l2cap", "le-signaling", "att", "advertising",
                         "btsnoop", "pcap", "pcapng", "dissector", "host"]
private let maximumSeeds = 400

private var seeds: [String: [[UInt8]]] = [:]
private var seen: [String: Set<[UInt8]>] = [:]

/// `capped`: false for the hand-made seeds, which are few and must not be crowded out by a
/// capture's.
private func add(_ harness: String, _ bytes: [UInt8], capped: Bool = true) {
    guard !bytes.isEmpty, !capped || seeds[harness, default: []].count < maximumSeeds else { return }
    guard seen[harness, default: []].insert(bytes).inserted else { return }
    seeds[harness, default: []].append(bytes)
}

private func readFile(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        out += buffer[0..<n]
    }
    return out
}

private func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    guard let f = fopen(path, "wb") else { return false }
    defer { fclose(f) }
    return bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) } == bytes.count
}

/// FNV-1a, for file names that stay the same from one build to the next.
private func fnv(_ bytes: [UInt8]) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    let s = String(h, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
}

private func u16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
private func u32(_ v: Int) -> [UInt8] { u16(v) + u16(v >> 16) }

// MARK: - Cutting one capture

private func seeds(from records: [CaptureRecord], raw: [UInt8], name: String) {
    let groups = stride(from: 0, to: records.count, by: 24).map { Array(records[$0..<min(records.count, $0 + 24)]) }

    // H4 streams: controller-to-host packets, 24 at a time.
    for g in groups.prefix(60) {
        var stream: [UInt8] = [0x01, 0x03]
        for r in g where r.direction == .controllerToHost { stream += r.packet.h4Bytes }
        add("h4-framer", Array(stream.prefix(4096)))
    }

    var reassembler = ACLReassembler()
    for r in records {
        let bytes = Array(r.packet.bytes)
        switch r.packet.type {
        case .event:
            add("hci-event", bytes)
            if let e = try? HCIEvent.decode(bytes) {
                switch e {
                case let .le(.advertisingReport(a)):
                    for report in a.reports { add("advertising", [0x0D, 0x18] + Array(report.data)) }
                case let .le(.extendedAdvertisingReport(a)):
                    for report in a.reports { add("advertising", [0x0D, 0x18] + Array(report.data)) }
                default:
                    break
                }
            }
        case .command:
            add("hci-command", bytes)
        case .acl:
            guard let packet = try? ACLPacket.decode(bytes[...]) else { continue }
            if let frame = reassembler.feed(packet).frame {
                switch frame.channelID {
                case .att: add("att", Array(frame.payload))
                case .leSignaling: add("le-signaling", Array(frame.payload))
                default: break
                }
            }
        default:
            break
        }
    }

    // ACL runs: raw packets (flag bit 7) when they fit a one-byte length, else rebuilt on
    // handle 0x0040.
    for g in groups.prefix(80) {
        var input: [UInt8] = [0x00, 26]
        for r in g where r.packet.type == .acl {
            let bytes = Array(r.packet.bytes)
            if bytes.count <= 255 {
                input += [0x80, UInt8(bytes.count)] + bytes
            } else if let p = try? ACLPacket.decode(bytes[...]) {
                input += [1 | p.packetBoundary.rawValue << 2, UInt8(min(255, p.data.count))] + p.data.prefix(255)
            }
        }
        if input.count > 2 { add("acl-l2cap", input) }
    }

    // Small capture files: 16 records each.
    for (i, chunk) in stride(from: 0, to: records.count, by: 16).enumerated() where i < 60 {
        let part = records[chunk..<min(records.count, chunk + 16)]
        var btsnoop = BtsnoopFormat.fileHeader()
        var pcap = PcapFormat.fileHeader()
        var pcapng = pcapngHeader()
        for r in part {
            try? BtsnoopFormat.appendRecord(r, to: &btsnoop)
            try? PcapFormat.appendRecord(r, to: &pcap)
            pcapng += enhancedPacketBlock(r)
        }
        add("btsnoop", btsnoop)
        add("pcap", pcap)
        add("pcapng", pcapng)
    }
    // The capture's own first blocks, in its own format (whatever options its writer used).
    add(raw.starts(with: BtsnoopFormat.magic) ? "btsnoop" : "pcapng", Array(raw.prefix(8192)))

    // Dissector runs: every direction and type, 24 records each.
    for g in groups.prefix(80) {
        var input: [UInt8] = []
        var last = g.first?.timestampMicros ?? 0
        for r in g {
            let step = max(0, min(255, (r.timestampMicros - last) / 1000))
            last = r.timestampMicros
            let bytes = Array(r.packet.bytes.prefix(1100))
            input += [r.packet.type.rawValue - 1 | (r.direction == .controllerToHost ? 8 : 0), UInt8(step)] + u16(bytes.count) + bytes
        }
        add("dissector", input)
    }

    // Host scripts: what the controller sent, on the harness's connected handle, with the
    // controller answering the host's commands and completing its packets now and then.
    for g in groups.prefix(80) {
        var input: [UInt8] = [0x00]
        for (i, r) in g.enumerated() where r.direction == .controllerToHost {
            var bytes = Array(r.packet.bytes)
            switch r.packet.type {
            case .event where bytes.count <= 255:
                input += [0x00, 5, UInt8(bytes.count)] + bytes
            case .acl where bytes.count >= 4 && bytes.count <= 600:
                bytes[0] = 0x40
                bytes[1] = bytes[1] & 0xF0
                input += [0x03, 5] + u16(bytes.count) + bytes
            default:
                continue
            }
            if i % 4 == 3 { input += [0x07, 0, 0x08, 0] }
        }
        add("host", input)
    }
}

// MARK: - pcapng blocks

private func pcapngHeader() -> [UInt8] {
    // Section Header Block (v1.0, unknown section length), then one Interface Description Block
    // for LINKTYPE 201 (H4 with the 4-byte direction pseudo-header), both little-endian.
    var out = u32(0x0A0D_0D0A) + u32(28) + u32(0x1A2B_3C4D) + u16(1) + u16(0) + [UInt8](repeating: 0xFF, count: 8) + u32(28)
    out += u32(1) + u32(20) + u16(201) + u16(0) + u32(0) + u32(20)
    return out
}

private func enhancedPacketBlock(_ r: CaptureRecord) -> [UInt8] {
    let data = [0, 0, 0, r.direction == .controllerToHost ? 1 : 0] + r.packet.h4Bytes
    let padded = data + [UInt8](repeating: 0, count: (4 - data.count % 4) % 4)
    let total = 32 + padded.count
    let stamp = UInt64(bitPattern: r.timestampMicros)
    return u32(6) + u32(total) + u32(0) + u32(Int(stamp >> 32)) + u32(Int(stamp & 0xFFFF_FFFF))
        + u32(data.count) + u32(data.count) + padded + u32(total)
}

// MARK: - Hand-made seeds

/// Inputs no phone capture holds: the host's discovery answered, signaling requests, a
/// Hardware Error, the timeouts.
private func handMadeSeeds() {
    // Host: answer discovery with one Heart Rate service, its measurement characteristic and
    // CCCD, then notifications; a Connection Parameter Update Request; credits back.
    var host: [UInt8] = [0x00]
    host += [0x06, 1, 7, 0x06, 0x01, 0x00, 0x05, 0x00, 0x0D, 0x18]                  // Read By Group Type Response
    host += [0x46, 1, 4, 0x10, 0x06, 0x00, 0x0A]                                         // Error Response: Attribute Not Found
    host += [0x06, 1, 8, 0x07, 0x02, 0x00, 0x10, 0x03, 0x00, 0x37, 0x2A]                 // Read By Type Response
    host += [0x46, 1, 4, 0x08, 0x04, 0x00, 0x0A]
    host += [0x06, 1, 5, 0x01, 0x04, 0x00, 0x02, 0x29]                                   // Find Information Response
    host += [0x06, 1, 0]                                                                 // Write Response
    host += [0x08, 1]                                                                    // credits back
    host += [0x05, 20, 7, 0, 0x1B, 0x03, 0x00, 0x00, 0x48, 0x01, 0x02]                   // notification
    host += [0x45, 0, 12, 0, 0x12, 0x01, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0x90, 0x01] // parameter update
    host += [0x07, 0]                                                                    // LE Connection Update answered
    add("host", host)
    add("host", [0x03] + host.dropFirst())
    add("host", [0x00, 0x0E, 200, 0x08, 0, 0x07, 0])                                 // Hardware Error, 36 s pass
    add("host", [0x03, 0x09, 0, 0x13, 0x08, 0, 0x0B, 0, 0x0A, 0, 0x40, 0x00])        // drop, reconnect; 4 passes
    keyDistributionSeeds()
}

/// Host: pairing at connection (Just Works, security medium) run to the peer's key
/// distribution, then the keys in every place a real controller and peer may put them
/// relative to the Command Complete of Read Encryption Key Size — all before it (the order
/// that broke pairing in issue 17 §1), after key 1, 2 or 3, all after it — and all five keys
/// in a wrong order; for Secure Connections and legacy pairing, with and without bonding, the
/// host's identity and signing key, the peer taking every key or a subset, and Encryption
/// Change v1 (the host asks for the key size) or v2 (it carries it). Steps as the host
/// harness reads them (Tests/Fuzz/Harnesses/Host.swift: op 0x7F the peer answers, 0x07 the
/// controller answers, 0x3F / 0x4F Encryption Change, 0x8F / 0x9F the keys, 0x08 credits back).
private func keyDistributionSeeds() {
    let keyContents: [UInt8] = [0x11, 0x22, 0x00, 0x33, 0x44]
    // Second setup byte: SC and bonding; legacy; own identity; both; signing; all; no bonding.
    for securityByte: UInt8 in [0x00, 0x08, 0x10, 0x18, 0x20, 0x38, 0x04] {
        // The peer's Pairing Response takes every key offered, or the peer sends IRK and
        // CSRK only (and takes all of ours), or only its LTK.
        for keysTaken: UInt8 in [0x00, 0xE7, 0xCF] {
            let secureConnections = securityByte & 0x08 == 0
            var pairing: [UInt8] = [0x7F, 0, 3, secureConnections ? 0x09 : 0x01, 0, keysTaken]  // Pairing Response
            pairing += secureConnections
                ? [0x7F, 0, 5, 0x7F, 0, 1, 0, 0x7F, 0]   // public key and confirm, random, DHKey check
                : [0x7F, 0, 0x7F, 0, 1, 0]               // confirm, random
            pairing += [0x07, 0]                          // LE Enable Encryption's Command Status
            for encryptionChange: UInt8 in [0x3F, 0x4F] {
                let start: [UInt8] = [0xD4, securityByte] + pairing + [encryptionChange, 0, 0]
                let orders: [[UInt8]] = [
                    [0x8F, 0, 0x00] + keyContents + [0x07, 0],      // every key before the Command Complete
                    [0x07, 0, 0x8F, 0, 0x00] + keyContents,         // every key after it
                    [0x8F, 0, 0x01] + keyContents,                  // after the first key
                    [0x8F, 0, 0x02] + keyContents,                  // after the second
                    [0x8F, 0, 0x04] + keyContents,                  // after the third
                    [0x9F, 0, 0x00] + keyContents + [3, 2, 1, 0, 0x07, 0],  // all five, out of order
                ]
                for order in orders { add("host", start + order + [0x08, 0], capped: false) }
            }
        }
    }
}

// MARK: - Main

@main
struct SeedCorpus {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            fputs("usage: seed-corpus OUTPUT-DIRECTORY CAPTURE…\n", stderr)
            exit(2)
        }
        let output = arguments[1]
        for path in arguments.dropFirst(2) {
            guard let raw = readFile(path) else {
                fputs("seed-corpus: cannot read \(path)\n", stderr)
                continue
            }
            var records: [CaptureRecord] = []
            if var reader = try? CaptureReader(bytes: raw) {
                while true {
                    do {
                        guard let r = try reader.next() else { break }
                        records.append(r)
                    } catch {
                        if error.endsStream { break }
                    }
                }
            }
            seeds(from: records, raw: raw, name: path)
        }
        handMadeSeeds()
        var total = 0
        for h in harnesses {
            let directory = output + "/" + h
            mkdir(output, 0o755)
            mkdir(directory, 0o755)
            for s in seeds[h, default: []] {
                if !writeFile(directory + "/seed-" + fnv(s), s) {
                    fputs("seed-corpus: cannot write into \(directory)\n", stderr)
                    exit(1)
                }
            }
            total += seeds[h, default: []].count
            print("\(h): \(seeds[h, default: []].count) seeds")
        }
        print("seed-corpus: \(total) seeds")
    }
}
