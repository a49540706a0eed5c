import Testing
import TestSupport
@testable import Wire


/// Feeds `stream` in the given chunk sizes (cycled), pulling every output after each feed.
func frame(_ stream: [UInt8], chunks: [Int], configuration: H4Framer.Configuration = .init(),
           finish: Bool = false) -> (outputs: [H4FramerOutput], framer: H4Framer) {
    var framer = H4Framer(configuration: configuration)
    var outputs: [H4FramerOutput] = []
    var i = 0, c = 0
    while i < stream.count {
        let n = max(1, chunks[c % chunks.count])
        c += 1
        let j = min(stream.count, i + n)
        framer.feed(stream[i..<j])
        i = j
        while let o = framer.next() { outputs.append(o) }
    }
    if finish {
        framer.finish()
        while let o = framer.next() { outputs.append(o) }
    }
    return (outputs, framer)
}

func packets(_ outputs: [H4FramerOutput]) -> [HCIPacket] {
    outputs.compactMap { if case .packet(let p) = $0 { return p } else { return nil } }
}

func garbageCount(_ outputs: [H4FramerOutput]) -> Int {
    outputs.reduce(0) { sum, o in
        if case .garbage(let bytes, _) = o { return sum + bytes.count } else { return sum }
    }
}

/// A random packet whose header passes the framer's plausibility rules.
func randomPacket(_ rng: inout SplitMix64) -> HCIPacket {
    func payload(_ n: Int, _ rng: inout SplitMix64) -> [UInt8] {
        (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }
    switch Int.random(in: 0..<5, using: &rng) {
    case 0:
        let ocf = UInt16.random(in: 1...0x7F, using: &rng)
        let ogf: UInt16 = [0x01, 0x03, 0x04, 0x08, 0x3F][Int.random(in: 0..<5, using: &rng)]
        let opcode = ogf << 10 | ocf
        let n = Int.random(in: 0...40, using: &rng)
        return HCIPacket(type: .command, bytes: [UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(n)] + payload(n, &rng))
    case 1:
        let handle = UInt16.random(in: 0...0x0EFF, using: &rng) | (Bool.random(using: &rng) ? 0x2000 : 0x1000)
        let n = Int.random(in: 0...300, using: &rng)
        return HCIPacket(type: .acl, bytes: [UInt8(handle & 0xFF), UInt8(handle >> 8), UInt8(n & 0xFF), UInt8(n >> 8)] + payload(n, &rng))
    case 2:
        let handle = UInt16.random(in: 0...0x0EFF, using: &rng)
        let n = Int.random(in: 0...60, using: &rng)
        return HCIPacket(type: .sco, bytes: [UInt8(handle & 0xFF), UInt8(handle >> 8), UInt8(n)] + payload(n, &rng))
    case 3:
        let (code, n): (UInt8, Int)
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: (code, n) = (0x0E, Int.random(in: 3...80, using: &rng))
        case 1: (code, n) = (0x0F, 4)
        case 2: (code, n) = (0x13, 1 + 4 * Int.random(in: 0...4, using: &rng))
        case 3: (code, n) = (0x3E, Int.random(in: 1...255, using: &rng))
        default: (code, n) = (0xFF, Int.random(in: 0...30, using: &rng))
        }
        return HCIPacket(type: .event, bytes: [code, UInt8(n)] + payload(n, &rng))
    default:
        let handle = UInt16.random(in: 0...0x0EFF, using: &rng) | 0x2000
        let n = Int.random(in: 0...200, using: &rng)
        return HCIPacket(type: .iso, bytes: [UInt8(handle & 0xFF), UInt8(handle >> 8), UInt8(n & 0xFF), UInt8(n >> 8)] + payload(n, &rng))
    }
}

@Suite struct H4FramerTests {
    /// One packet of every type, written by hand from the packet formats.
    static let specVectors: [(H4PacketType, [UInt8])] = [
        // Core Spec v5.4 Vol 4, Part E, §5.4.1 + §7.3.2: HCI_Reset, opcode 0x0C03, no parameters.
        (.command, [0x01, 0x03, 0x0C, 0x00]),
        // Core Spec v5.4 Vol 4, Part E, §5.4.2: handle 0x040, PB 0b10, 7 bytes carrying an
        // L2CAP B-frame (Vol 3, Part A, §3.1) to CID 0x0004 with ATT_READ_REQ handle 0x0001
        // (Vol 3, Part F, §3.4.4.3).
        (.acl, [0x02, 0x40, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00]),
        // Core Spec v5.4 Vol 4, Part E, §5.4.3: SCO handle 0x001, 3 bytes of audio.
        (.sco, [0x03, 0x01, 0x00, 0x03, 0xAA, 0xBB, 0xCC]),
        // Core Spec v5.4 Vol 4, Part E, §5.4.4 + §7.7.14: Command Complete for HCI_Reset,
        // Num_HCI_Command_Packets 1, status Success.
        (.event, [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),
        // Core Spec v5.4 Vol 4, Part E, §5.4.5: ISO handle 0x060, PB 0b10 (complete SDU), no
        // time stamp, 4 bytes: Packet_Sequence_Number 1, ISO_SDU_Length 0.
        (.iso, [0x05, 0x60, 0x20, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00]),
    ]

    @Test(arguments: 0..<5)
    func framesEveryPacketType(index: Int) {
        let (type, h4) = Self.specVectors[index]
        var framer = H4Framer()
        framer.feed(h4)
        let out = framer.next()
        #expect(out == .packet(HCIPacket(type: type, bytes: Array(h4.dropFirst()))))
        #expect(framer.next() == nil)
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.packetCount == 1)
    }

    @Test func encodeIsTheInverseOfFraming() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let packet = randomPacket(&rng)
            let h4 = H4Framer.encode(packet)
            #expect(h4.first == packet.type.rawValue)
            #expect(h4 == packet.h4Bytes)
            var framer = H4Framer()
            framer.feed(h4)
            #expect(framer.next() == .packet(packet))
        }
        var batch: [UInt8] = []
        for (type, h4) in Self.specVectors {
            H4Framer.encode(HCIPacket(type: type, bytes: Array(h4.dropFirst())), into: &batch)
        }
        #expect(batch == Self.specVectors.flatMap(\.1))
    }

    @Test func oneByteChunksGiveTheSamePacketsAsOneBuffer() {
        var rng = SplitMix64(seed: 42)
        let sent = (0..<300).map { _ in randomPacket(&rng) }
        let stream = sent.flatMap { H4Framer.encode($0) }
        let whole = frame(stream, chunks: [stream.count])
        let bytewise = frame(stream, chunks: [1])
        #expect(packets(whole.outputs) == sent)
        #expect(bytewise.outputs == whole.outputs)
        #expect(garbageCount(whole.outputs) == 0)
        #expect(whole.framer.bufferedByteCount == 0 && bytewise.framer.bufferedByteCount == 0)
    }

    @Test(arguments: [1, 2, 3, 1234, 0xDEAD_BEEF] as [UInt64])
    func randomChunkBoundariesOverALongStream(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let sent = (0..<2000).map { _ in randomPacket(&rng) }
        let stream = sent.flatMap { H4Framer.encode($0) }
        let chunks = (0..<500).map { _ in
            Bool.random(using: &rng) ? Int.random(in: 1...8, using: &rng) : Int.random(in: 1...2000, using: &rng)
        }
        let result = frame(stream, chunks: chunks)
        #expect(packets(result.outputs) == sent)
        #expect(result.outputs.count == sent.count)
        #expect(result.framer.packetCount == sent.count)
        #expect(result.framer.garbageByteCount == 0)
        #expect(result.framer.bufferedByteCount == 0)
    }

    @Test(arguments: [[1], [3], [5000]])
    func garbageAtStartIsReportedExactlyThenPacketsFollow(chunks: [Int]) {
        let junk: [UInt8] = [0xFF, 0x00, 0x99, 0xA5, 0x42, 0x80, 0x10]
        let good = Self.specVectors.flatMap(\.1)
        let result = frame(junk + good, chunks: chunks)
        #expect(garbageCount(result.outputs) == junk.count)
        #expect(result.framer.garbageByteCount == junk.count)
        if case .garbage(let bytes, let reason) = result.outputs.first {
            #expect(bytes.first == 0xFF)
            #expect(reason == .unknownPacketType(0xFF))
        } else {
            Issue.record("first output is not garbage: \(String(describing: result.outputs.first))")
        }
        #expect(packets(result.outputs).map(\.h4Bytes) == Self.specVectors.map(\.1))
        // Garbage never comes after the packets it preceded.
        let firstPacket = result.outputs.firstIndex { if case .packet = $0 { return true } else { return false } }
        let lastGarbage = result.outputs.lastIndex { if case .garbage = $0 { return true } else { return false } }
        #expect(firstPacket.map { p in lastGarbage.map { $0 < p } ?? false } == true)
    }

    @Test(arguments: [[1], [2, 7], [10_000]])
    func garbageInTheMiddleResynchronises(chunks: [Int]) {
        var rng = SplitMix64(seed: 99)
        let before = (0..<50).map { _ in randomPacket(&rng) }
        let after = (0..<50).map { _ in randomPacket(&rng) }
        // An event indicator with an unassigned event code (0x00) is a rejected start too.
        let junk: [UInt8] = [0xEE, 0x04, 0x00, 0xC3, 0xFF, 0xFF, 0x7E]
        let stream = before.flatMap { H4Framer.encode($0) } + junk + after.flatMap { H4Framer.encode($0) }
        let result = frame(stream, chunks: chunks)
        #expect(packets(result.outputs) == before + after)
        #expect(garbageCount(result.outputs) == junk.count)
        let reasons = result.outputs.compactMap { o -> H4FramerOutput.GarbageReason? in
            if case .garbage(_, let r) = o { return r } else { return nil }
        }
        #expect(reasons.first == .unknownPacketType(0xEE))
    }

    @Test func implausibleEventHeaderIsGarbage() {
        // Command Status always has 4 parameter bytes (Core Spec v5.4 Vol 4, Part E, §7.7.15);
        // a "Command Status" with 9 is not a packet start.
        let junk: [UInt8] = [0x04, 0x0F, 0x09]
        let good: [UInt8] = [0x04, 0x0F, 0x04, 0x00, 0x01, 0x0D, 0x20]
        var framer = H4Framer()
        framer.feed(junk + good)
        #expect(framer.next() == .garbage(bytes: junk, reason: .implausibleHeader(.event)))
        #expect(framer.next() == .packet(HCIPacket(type: .event, bytes: Array(good.dropFirst()))))
        #expect(framer.next() == nil)
    }

    @Test func oversizedACLIsGarbageAndTheFramerMovesOn() {
        let config = H4Framer.Configuration(maxACLDataLength: 27)
        // ACL announcing 100 bytes where the controller's buffer holds 27.
        let bad: [UInt8] = [0x02, 0x40, 0x20, 100, 0x00] + [UInt8](repeating: 0xEE, count: 100)
        let good: [UInt8] = Self.specVectors[1].1
        let result = frame(bad + good, chunks: [7], configuration: config)
        #expect(garbageCount(result.outputs) == bad.count)
        if case .garbage(_, let reason) = result.outputs.first {
            #expect(reason == .oversized(.acl, length: 100))
        } else {
            Issue.record("expected garbage first")
        }
        #expect(packets(result.outputs).map(\.h4Bytes) == [good])
    }

    @Test func commandsAreGarbageOnAHostsReceivePath() {
        var config = H4Framer.Configuration.controllerToHost
        config.maxACLDataLength = 251
        // LE_Set_Scan_Enable (Core Spec v5.4 Vol 4, Part E, §7.8.11) followed by its Command Complete.
        let command: [UInt8] = [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00]
        let event: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00]
        var framer = H4Framer(configuration: config)
        framer.feed(command + event)
        #expect(framer.next() == .garbage(bytes: command, reason: .unacceptedPacketType(.command)))
        #expect(framer.next() == .packet(HCIPacket(type: .event, bytes: Array(event.dropFirst()))))
    }

    @Test func garbageComesInBoundedChunks() {
        let config = H4Framer.Configuration(maxGarbageChunk: 100)
        let junk = [UInt8](repeating: 0xFF, count: 1000)
        let result = frame(junk + Self.specVectors[0].1, chunks: [4096], configuration: config)
        let chunks = result.outputs.compactMap { o -> Int? in
            if case .garbage(let b, _) = o { return b.count } else { return nil }
        }
        #expect(chunks == [Int](repeating: 100, count: 10))
        #expect(packets(result.outputs).count == 1)
    }

    @Test func extremeConfigurationsDoNotTrap() {
        let configs = [
            H4Framer.Configuration(maxACLDataLength: Int.max, maxSCODataLength: Int.min, maxISODataLength: -1,
                                   acceptedTypes: [], maxGarbageChunk: Int.max),
            H4Framer.Configuration(maxACLDataLength: 0, maxGarbageChunk: 0),
        ]
        var rng = SplitMix64(seed: 77)
        let stream = (0..<50).flatMap { _ in H4Framer.encode(randomPacket(&rng)) }
        for config in configs {
            let result = frame(stream, chunks: [13], configuration: config, finish: true)
            let packetBytes = packets(result.outputs).reduce(0) { $0 + 1 + $1.bytes.count }
            #expect(packetBytes + garbageCount(result.outputs) == stream.count)
        }
        // Nothing accepted: everything is garbage.
        #expect(packets(frame(stream, chunks: [13], configuration: configs[0], finish: true).outputs).isEmpty)
    }

    @Test func truncatedStreamYieldsNothingExtra() {
        var rng = SplitMix64(seed: 5)
        let sent = (0..<20).map { _ in randomPacket(&rng) } + [HCIPacket(type: .event, bytes: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])]
        let stream = sent.flatMap { H4Framer.encode($0) }
        for cut in 1...6 {
            let truncated = Array(stream.dropLast(cut))
            let result = frame(truncated, chunks: [3])
            #expect(packets(result.outputs) == Array(sent.dropLast()))
            #expect(garbageCount(result.outputs) == 0)
            #expect(result.framer.bufferedByteCount == 7 - cut)
        }
    }

    @Test func finishReportsTheIncompleteTailExactly() {
        let event: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        let tail: [UInt8] = [0x02, 0x40, 0x20, 0x1B, 0x00, 0xEE, 0xEE]   // ACL announcing 27 bytes, 2 arrived
        let result = frame(event + tail, chunks: [2], finish: true)
        #expect(packets(result.outputs).map(\.h4Bytes) == [event])
        #expect(garbageCount(result.outputs) == tail.count)
        if case .garbage(_, let reason) = result.outputs.dropFirst().first {
            #expect(reason == .truncatedAtEnd)
        } else {
            Issue.record("expected the tail as garbage")
        }
        #expect(result.framer.bufferedByteCount == 0)
    }

    @Test func finishRecoversAPacketHiddenBehindAFalseStart() {
        // A false ACL start swallows the event until the input ends; then the event is found.
        let falseStart: [UInt8] = [0x02, 0x40, 0x20, 0x40, 0x00]
        let event: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        var framer = H4Framer()
        framer.feed(falseStart + event)
        #expect(framer.next() == nil)
        framer.finish()
        #expect(framer.next() == .garbage(bytes: falseStart, reason: .truncatedAtEnd))
        #expect(framer.next() == .packet(HCIPacket(type: .event, bytes: Array(event.dropFirst()))))
        #expect(framer.next() == nil)
    }

    @Test func randomBytesNeverTrapAndEveryByteIsAccountedFor() {
        var rng = SplitMix64(seed: 2024)
        for round in 0..<300 {
            let n = Int.random(in: 0...3000, using: &rng)
            // Bias towards indicator bytes so that many candidate headers are judged.
            let bytes = (0..<n).map { _ in
                Bool.random(using: &rng) ? UInt8.random(in: 0...6, using: &rng) : UInt8.random(in: 0...255, using: &rng)
            }
            let chunks = (0..<20).map { _ in Int.random(in: 1...300, using: &rng) }
            let config = round % 2 == 0 ? H4Framer.Configuration() : H4Framer.Configuration(maxACLDataLength: 100, maxGarbageChunk: 17)
            let result = frame(bytes, chunks: chunks, configuration: config, finish: true)
            let packetBytes = packets(result.outputs).reduce(0) { $0 + 1 + $1.bytes.count }
            #expect(packetBytes + garbageCount(result.outputs) == n)
            #expect(result.framer.bufferedByteCount == 0)
            // Re-encoding what came out gives back the input exactly.
            var rebuilt: [UInt8] = []
            for o in result.outputs {
                switch o {
                case .packet(let p): H4Framer.encode(p, into: &rebuilt)
                case .garbage(let b, _): rebuilt += b
                }
            }
            #expect(rebuilt == bytes)
        }
    }

    @Test func bufferStaysBoundedWhileStreaming() {
        var rng = SplitMix64(seed: 11)
        let sent = (0..<3000).map { _ in randomPacket(&rng) }
        let stream = sent.flatMap { H4Framer.encode($0) }
        var framer = H4Framer()
        var i = 0, received = 0, largestStorage = 0
        while i < stream.count {
            let j = min(stream.count, i + Int.random(in: 1...512, using: &rng))
            framer.feed(stream[i..<j])
            i = j
            largestStorage = max(largestStorage, framer.storageByteCount)
            while let o = framer.next() { if case .packet = o { received += 1 } }
        }
        #expect(received == sent.count)
        // Largest packet here is 1 + 4 + 300 bytes; chunks are ≤ 512 bytes.
        #expect(largestStorage <= 2 * 305 + 512)
    }

    @Test func withNextLendsTheBufferAndAdvances() {
        var framer = H4Framer()
        framer.feed(Self.specVectors.flatMap(\.1))
        var seen: [[UInt8]] = []
        while let h4 = framer.withNext({ output -> [UInt8] in
            if case .packet(let p) = output { return p.h4Bytes } else { return [] }
        }) {
            seen.append(h4)
        }
        #expect(seen == Self.specVectors.map(\.1))
    }
}
