import Testing
import TestSupport
import Capture
import Dissector
import Wire

/// Hostile bytes through the whole decode path (capture reader → dissector → text and JSON):
/// thousands of mutated real captures must never crash or hang it.
@Suite struct DissectorMutationTests {
    /// Packets mutated one by one: bit flips, truncation, extension, random type bytes.
    @Test func mutatedPacketsNeverTrap() throws {
        guard let path = SharedCaptures.path("two-links-envsensing-android.btsnoop") else {
            print("skipped: ../shared/captures is absent (a fresh clone has no phone captures)")
            return
        }
        let base = try SharedCaptures.records(path).filter { $0.packet.type == .acl || $0.packet.type == .event || $0.packet.type == .command }
        var rng = SplitMix64(seed: 0x5EED_0001)
        let dissector = PacketDissector()
        let text = TextRenderer(hexDump: true)
        let json = JSONRenderer()
        var produced = 0
        for i in 0..<30_000 {
            var r = base[i % base.count]
            var bytes = Array(r.packet.bytes)
            switch rng.below(5) {
            case 0 where !bytes.isEmpty:
                let at = rng.below(bytes.count)
                bytes[at] ^= UInt8(1) << UInt8(rng.below(8))
            case 1 where !bytes.isEmpty:
                bytes.removeLast(rng.below(bytes.count) + 1)
            case 2:
                bytes += rng.bytes(rng.below(40))
            case 3 where bytes.count > 4:
                // Overwrite a length field with a random value.
                let at = rng.below(min(6, bytes.count))
                bytes[at] = rng.byte()
            default:
                bytes = rng.bytes(rng.below(64))
            }
            r.packet = HCIPacket(type: H4PacketType.allCases[rng.below(5)], bytes: bytes)
            let p = dissector.dissect(r)
            produced += text.render(p).utf8.count + json.render(p).utf8.count
        }
        #expect(dissector.statistics.packets == 30_000)
        #expect(produced > 0)
    }

    /// Whole files mutated and read by the capture reader, then decoded to the end.
    @Test func mutatedFilesDecodeOrStopWithAnError() throws {
        guard let path = SharedCaptures.path("ftms-treadmill-android.btsnoop") else {
            print("skipped: ../shared/captures is absent (a fresh clone has no phone captures)")
            return
        }
        let file = try readFile(path)
        var rng = SplitMix64(seed: 0x5EED_0002)
        for _ in 0..<300 {
            var bytes = Array(file.prefix(4000 + rng.below(8000)))
            for _ in 0..<(1 + rng.below(20)) {
                let at = rng.below(bytes.count)
                bytes[at] = rng.byte()
            }
            guard var reader = try? CaptureReader(bytes: bytes) else { continue }
            let dissector = PacketDissector()
            var steps = 0
            while steps < 100_000 {
                steps += 1
                do {
                    guard let r = try reader.next() else { break }
                    _ = TextRenderer().render(dissector.dissect(r))
                } catch {
                    if error.endsStream { break }
                }
            }
            #expect(steps < 100_000, "reader did not end")
        }
    }
}

func readFile(_ path: String) throws -> [UInt8] {
    var reader = try CaptureFile.open(path: path)
    _ = try reader.next()
    // The capture reader does not expose raw bytes; read the file directly.
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var out = [UInt8]()
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return out
}

import Glibc
