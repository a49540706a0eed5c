import Foundation
import Testing
import TestSupport
import Wire
@testable import Capture

/// Mutated captures (fixed seed, so a failure reproduces): the reader must never crash, never
/// hang, and every `next()` must either consume bytes or end.
@Suite struct MutationFuzzTests {
    /// What reading one input amounted to, step by step.
    enum Step: Equatable {
        case record(CaptureRecord)
        case error(CaptureError)
    }

    struct Summary {
        var steps: [Step] = []
        var violations: [String] = []
        var openError: CaptureError?
    }

    /// Reads to the end or the first stream-ending error, checking the invariants.
    static func drain(_ reader: inout CaptureReader, inputSize: Int, keepSteps: Bool) -> Summary {
        var summary = Summary()
        var lastOffset = reader.offset
        var calls = 0
        while true {
            calls += 1
            if calls > inputSize + 2 {
                summary.violations.append("more than \(inputSize + 2) calls to next() on \(inputSize) bytes")
                return summary
            }
            do {
                guard let record = try reader.next() else { return summary }
                // Touch every byte of the packet: the slice must be valid.
                var sum = 0
                for b in record.packet.bytes { sum &+= Int(b) }
                _ = sum
                if keepSteps { summary.steps.append(.record(record)) }
            } catch {
                if keepSteps { summary.steps.append(.error(error)) }
                if error.endsStream {
                    do {
                        _ = try reader.next()
                        summary.violations.append("no error after stream-ending \(error)")
                    } catch let again {
                        if again != error { summary.violations.append("error changed: \(error) then \(again)") }
                    }
                    return summary
                }
            }
            if reader.offset <= lastOffset {
                summary.violations.append("next() did not consume bytes at offset \(lastOffset)")
                return summary
            }
            if reader.offset > inputSize {
                summary.violations.append("offset \(reader.offset) beyond the \(inputSize)-byte input")
            }
            lastOffset = reader.offset
        }
    }

    static func drain(bytes: [UInt8], keepSteps: Bool = false) -> Summary {
        do {
            var reader = try CaptureReader(bytes: bytes)
            return drain(&reader, inputSize: bytes.count, keepSteps: keepSteps)
        } catch {
            var s = Summary()
            s.openError = error
            return s
        }
    }

    /// Offsets of length fields worth overwriting: each record's or block's header.
    static func lengthFieldOffsets(_ bytes: [UInt8]) -> [Int] {
        guard var reader = try? CaptureReader(bytes: bytes) else { return [] }
        var out: [Int] = []
        while let r = try? reader.next() {
            switch reader.format {
            case .btsnoop: out += [r.fileOffset, r.fileOffset + 4]
            case .pcap: out += [r.fileOffset + 8, r.fileOffset + 12]
            case .pcapng: out += [r.fileOffset + 4, r.fileOffset + 20, r.fileOffset + 24]
            }
        }
        return out
    }

    static let interestingWords: [UInt32] = [0, 1, 3, 4, 11, 12, 16, 0x7f, 0x80, 0xff, 0xffff, 0x10000,
                                             0x100000, 0x100001, 0x7fff_ffff, 0x8000_0000, 0xffff_fff0, 0xffff_ffff]

    static func mutate(_ input: [UInt8], lengthFields: [Int], rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        let count = 1 + Int(rng.next() % 3)
        for _ in 0..<count {
            guard !bytes.isEmpty else { return bytes }
            let at = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 7 {
            case 0: // bit flip
                bytes[at] ^= 1 << UInt8(rng.next() % 8)
            case 1: // truncation
                bytes.removeLast(bytes.count - at)
            case 2: // inserted bytes
                let n = 1 + Int(rng.next() % 16)
                bytes.insert(contentsOf: (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, at: at)
            case 3: // deleted bytes
                let n = min(bytes.count - at, 1 + Int(rng.next() % 16))
                bytes.removeSubrange(at..<(at + n))
            case 4: // random byte
                bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            default: // length-field overwrite (targeted or anywhere), either byte order
                let target = lengthFields.isEmpty || rng.next() % 4 == 0
                    ? at : lengthFields[Int(rng.next() % UInt64(lengthFields.count))]
                let word = interestingWords[Int(rng.next() % UInt64(interestingWords.count))]
                let bigEndian = rng.next() % 2 == 0
                for k in 0..<4 where target + k < bytes.count {
                    let shift = bigEndian ? 8 * (3 - k) : 8 * k
                    bytes[target + k] = UInt8(truncatingIfNeeded: word >> UInt32(shift))
                }
            }
        }
        return bytes
    }

    /// A pcapng with most of what the reader handles: two sections in both byte orders,
    /// options, EPB/SPB/PB, unknown blocks, both link types.
    static let richPcapng: [UInt8] = {
        var a = PcapngBuilder(bigEndian: false)
        a.interface(linkType: 201, snapLength: 0, options: [(9, [9]), (14, a.u64(5))])
        a.interface(linkType: 187, options: [(9, [0x8a])])
        a.enhancedPacket(interface: 0, timestamp: 1_000_000_000, data: PcapngVectorTests.reset, options: [(1, Array("comment".utf8))])
        a.block(5) { b in b.u32(0); b.u32(0); b.u32(2) }
        a.enhancedPacket(interface: 1, timestamp: 2048, data: [0x02, 0x40, 0x20, 0x00, 0x00], options: [(2, a.u32(1))])
        a.simplePacket(originalLength: 11, data: PcapngVectorTests.complete)
        a.obsoletePacket(interface: 0, timestamp: 77, data: PcapngVectorTests.complete)
        var b = PcapngBuilder(bigEndian: true)
        b.interface(linkType: 201)
        b.block(4) { x in x.u16(0); x.u16(0) }
        b.enhancedPacket(timestamp: 9, data: PcapngVectorTests.complete)
        return a.bytes + b.bytes
    }()

    static let handBuilt: [(String, [UInt8])] = [
        ("rich.pcapng", richPcapng),
        ("monitor.btsnoop", BtsnoopVectorTests.file(datalink: 2001, records: [
            (0, [0, 1, 1, 2, 3, 4, 5, 6] + Array("hci0\0\0\0\0".utf8)), (2, [0x03, 0x0c, 0x00]),
            (3, [0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]), (12, Array("x\0".utf8)), (5, [0x01, 0x20, 0x01, 0x00, 0xaa]),
        ])),
        ("be-ns.pcap", PcapVectorTests.file(bigEndian: true, nanoseconds: true, linkType: 201, records: [
            (1, 999_999_999, PcapVectorTests.sent + [0x01, 0x03, 0x0c, 0x00]),
            (2, 0, PcapVectorTests.received + [0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]),
        ])),
    ]

    static func run(name: String, input: [UInt8], iterations: Int, window: Int?, seed: UInt64) -> (runs: Int, records: Int, errors: Int) {
        var rng = SplitMix64(seed: seed)
        let base = window.map { Array(input.prefix($0)) } ?? input
        let fields = lengthFieldOffsets(base)
        var records = 0, errors = 0, reported = 0
        for i in 0..<iterations {
            let mutated = mutate(base, lengthFields: fields, rng: &rng)
            let summary = drain(bytes: mutated, keepSteps: true)
            for step in summary.steps {
                if case .record = step { records += 1 } else { errors += 1 }
            }
            if summary.openError != nil { errors += 1 }
            if !summary.violations.isEmpty && reported < 3 {
                reported += 1
                Issue.record("\(name) mutation \(i): \(summary.violations.joined(separator: "; "))")
            }
        }
        return (iterations, records, errors)
    }

    @Test func handBuiltInputs() {
        for (i, (name, bytes)) in Self.handBuilt.enumerated() {
            // The unmutated input reads cleanly.
            let clean = Self.drain(bytes: bytes, keepSteps: true)
            #expect(clean.openError == nil && clean.violations.isEmpty, "\(name)")
            #expect(clean.steps.allSatisfy { if case .record = $0 { return true } else { return false } }, "\(name)")
            let result = Self.run(name: name, input: bytes, iterations: 2000, window: nil, seed: 0x5eed_0000 + UInt64(i))
            #expect(result.runs == 2000)
        }
    }

    @Test(.enabled(if: RealCaptures.available, "\(RealCaptures.skipMessage)"), arguments: RealCaptures.files)
    func realCaptures(name: String) throws {
        let bytes = try RealCaptures.bytes(name)
        let seed = UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xffff_ffff)
        // Most mutations on the first 8 KiB (headers and dozens of records, fast to re-read);
        // some on the whole file so that late records and the real end are hit too.
        let head = Self.run(name: name, input: bytes, iterations: 1500, window: 8192, seed: seed)
        let whole = Self.run(name: name, input: bytes, iterations: 60, window: nil, seed: seed ^ 0xffff)
        #expect(head.records + whole.records > 0)
        #expect(head.errors + whole.errors > 0)
    }

    /// Mutated files read through tiny buffers give exactly what reading them from memory
    /// gives: same records, same errors with the same offsets and counts.
    @Test func fileAndMemoryReadersAgreeOnMutatedInputs() throws {
        var inputs = Self.handBuilt.map(\.1)
        if RealCaptures.available {
            inputs += try RealCaptures.files.map { Array(try RealCaptures.bytes($0).prefix(4096)) }
        }
        let dir = try TemporaryDirectory()
        var rng = SplitMix64(seed: 0xd1ff)
        var compared = 0
        for (n, input) in inputs.enumerated() {
            let fields = Self.lengthFieldOffsets(input)
            for i in 0..<80 {
                let mutated = i == 0 ? input : Self.mutate(input, lengthFields: fields, rng: &rng)
                let path = try dir.write(mutated, to: "m\(n)-\(i)")
                let memory = Self.drain(bytes: mutated, keepSteps: true)
                let chunk = 32 + Int(rng.next() % 200)
                var fileSummary = Summary()
                do {
                    var reader = try CaptureFile.open(path: path, chunkSize: chunk)
                    fileSummary = Self.drain(&reader, inputSize: mutated.count, keepSteps: true)
                } catch {
                    fileSummary.openError = error
                }
                #expect(fileSummary.openError == memory.openError, "input \(n) mutation \(i) chunk \(chunk)")
                #expect(fileSummary.steps == memory.steps, "input \(n) mutation \(i) chunk \(chunk)")
                #expect(fileSummary.violations.isEmpty && memory.violations.isEmpty)
                compared += 1
            }
        }
        #expect(compared >= 240)
    }
}
