// libFuzzer harness: the H4 framer (Wire/H4/H4Framer.swift) over an arbitrary byte stream.
//
// Input: [configuration][chunking] stream…
// Checks: no trap; every byte comes back exactly once and in order (packets as indicator +
// bytes, garbage as its bytes); feeding the stream in arbitrary pieces gives the same packets
// and the same skipped bytes as feeding it at once; nothing stays buffered after `finish()`.
import Wire

/// What one framing of the stream produced: packets as H4 bytes, runs of garbage merged
/// (their split into chunks depends on how much input was buffered, not their content).
private struct Framing: Equatable {
    var items: [[UInt8]] = []
    var isGarbage: [Bool] = []
    var flat: [UInt8] = []

    mutating func add(_ output: H4FramerOutput, chunkLimit: Int) {
        switch output {
        case let .packet(p):
            let bytes = p.h4Bytes
            invariant(bytes.count == 1 + HCIPacket.headerLength(p.type) + payloadLength(p), "packet length disagrees with its header")
            items.append(bytes)
            isGarbage.append(false)
            flat += bytes
        case let .garbage(bytes, _):
            invariant(!bytes.isEmpty, "empty garbage chunk")
            invariant(bytes.count <= chunkLimit, "garbage chunk of \(bytes.count) above the limit \(chunkLimit)")
            if isGarbage.last == true {
                items[items.count - 1] += bytes
            } else {
                items.append(bytes)
                isGarbage.append(true)
            }
            flat += bytes
        }
    }

    private func payloadLength(_ p: HCIPacket) -> Int {
        let h = HCIPacket.headerLength(p.type)
        guard p.bytes.count >= h else { return -1 }
        return HCIPacket.payloadLength(p.type, header: p.bytes.prefix(h))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzH4Framer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.u8()
    let chunking = input.u8()
    let stream = input.rest()

    var configuration = selector & 1 == 0 ? H4Framer.Configuration() : .controllerToHost
    let aclLimits = [65535, 27, 251, 1021, 0, 4, 65535, 310]
    configuration.maxACLDataLength = aclLimits[Int(selector >> 1) & 7]
    let garbageLimits = [256, 1, 7, 256]
    configuration.maxGarbageChunk = garbageLimits[Int(selector >> 4) & 3]
    let chunkLimit = configuration.maxGarbageChunk

    // All at once.
    var whole = H4Framer(configuration: configuration)
    var a = Framing()
    whole.feed(stream)
    while let o = whole.next() { a.add(o, chunkLimit: chunkLimit) }
    whole.finish()
    while let o = whole.next() { a.add(o, chunkLimit: chunkLimit) }
    invariant(a.flat == stream, "whole feed: bytes out differ from bytes in")
    invariant(whole.bufferedByteCount == 0, "bytes left buffered after finish")

    // In pieces of 1…16 bytes (pattern from the chunking byte), alternating next() and the
    // borrowing withNext().
    var pieces = H4Framer(configuration: configuration)
    var b = Framing()
    var offset = 0
    var k = 0
    let sizes = [1, 2, 3, 5, 8, 13, 16, 4]
    while offset < stream.count {
        let n = min(stream.count - offset, chunking == 0 ? 1 : sizes[(Int(chunking) &+ k) & 7])
        pieces.feed(stream[offset..<(offset + n)])
        offset += n
        k += 1
        if k & 1 == 0 {
            while let o = pieces.next() { b.add(o, chunkLimit: chunkLimit) }
        } else {
            while let o = pieces.withNext({ (o: H4FramerOutput) -> H4FramerOutput in
                if case let .packet(p) = o { return .packet(HCIPacket(type: p.type, bytes: Array(p.bytes))) }
                return o
            }) {
                b.add(o, chunkLimit: chunkLimit)
            }
        }
    }
    pieces.finish()
    while let o = pieces.next() { b.add(o, chunkLimit: chunkLimit) }
    invariant(b.flat == stream, "piecewise feed: bytes out differ from bytes in")
    invariant(a.items == b.items && a.isGarbage == b.isGarbage, "piecewise feed framed the stream differently")
    invariant(whole.packetCount == pieces.packetCount, "packet counts differ")
    invariant(whole.garbageByteCount == pieces.garbageByteCount, "garbage counts differ")
    return 0
}
