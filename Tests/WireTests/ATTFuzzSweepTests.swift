import Testing
import TestSupport
@testable import Wire


private let attOpcodes: [UInt8] = (0...255).compactMap { ATTOpcode(UInt8($0)).kind == .unknown ? nil : UInt8($0) }

@Suite struct ATTFuzzSweepTests {
    /// Random inputs 0…64 bytes long, half of them starting with a real opcode so the
    /// parameter parsers are reached. Every input decodes or throws; what decodes must
    /// re-encode to something that decodes to the same value, and must describe itself.
    @Test func randomBytesNeverCrashATTDecode() {
        var rng = SplitMix64(state: 0xA77_2024)
        var decoded = 0
        var thrown = 0
        for _ in 0..<25_000 {
            var input = rng.bytes(rng.below(65))
            if !input.isEmpty, rng.below(2) == 0 {
                input[0] = attOpcodes[rng.below(attOpcodes.count)]
            }
            do {
                let pdu = try ATTPDU.decode(input[...])
                decoded += 1
                let again = try ATTPDU.decode(pdu.encoded)
                #expect(again == pdu, "\(Hex.spaced(input))")
                var fields = FieldList()
                pdu.describeFields(into: &fields)
                _ = pdu.summary
            } catch {
                thrown += 1
            }
        }
        // The sweep must exercise both outcomes, or it proves nothing.
        #expect(decoded > 1_000)
        #expect(thrown > 1_000)
    }

    /// The same for LE signaling commands; a third of the inputs get a consistent Length
    /// field so the per-command parsers run.
    @Test func randomBytesNeverCrashSignalingDecode() {
        var rng = SplitMix64(state: 0x5161_2024)
        let codes: [UInt8] = [0x01, 0x06, 0x07, 0x12, 0x13, 0x14, 0x15, 0x16, 0x08, 0x17]
        var decoded = 0
        var thrown = 0
        for _ in 0..<25_000 {
            var input = rng.bytes(rng.below(65))
            if input.count >= 4, rng.below(3) == 0 {
                input[0] = codes[rng.below(codes.count)]
                let length = input.count - 4
                input[2] = UInt8(truncatingIfNeeded: length)
                input[3] = UInt8(truncatingIfNeeded: length >> 8)
            }
            do {
                let command = try LESignalingCommand.decode(input[...])
                decoded += 1
                #expect(command.encoded == input, "\(Hex.spaced(input))")
                var fields = FieldList()
                command.describeFields(into: &fields)
                _ = command.summary
            } catch {
                thrown += 1
            }
        }
        #expect(decoded > 1_000)
        #expect(thrown > 1_000)
    }

    /// Random fragment streams on three handles: the reassembler never traps, reports the
    /// broken ones, and never yields a frame above its limit.
    @Test func randomFragmentStreamsNeverCrashTheReassembler() {
        var rng = SplitMix64(state: 0xAC1_2024)
        var r = ACLReassembler(maximumPayloadLength: 300)
        var frames = 0
        var issues = 0
        for _ in 0..<25_000 {
            let pb = ACLPacketBoundary(bits: UInt16(rng.below(4)))
            var data = rng.bytes(rng.below(40))
            if pb.isStart, data.count >= 2, rng.below(2) == 0 {
                // A plausible small L2CAP length.
                data[0] = UInt8(rng.below(60))
                data[1] = 0
            }
            let out = r.feed(ACLPacket(handle: UInt16(rng.below(3)), packetBoundary: pb, data: data[...]))
            issues += out.issues.count
            if let f = out.frame {
                frames += 1
                #expect(f.payload.count <= 300)
            }
        }
        #expect(frames > 100)
        #expect(issues > 100)
    }
}
