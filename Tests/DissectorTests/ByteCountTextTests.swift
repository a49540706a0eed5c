import Testing
import Capture
import Dissector
import Wire

/// Summaries of packets the dissector has no codec for count their bytes in plain English.
@Suite struct ByteCountTextTests {
    private func summary(_ type: H4PacketType, _ bytes: [UInt8]) -> String {
        let record = CaptureRecord(timestampMicros: 0, direction: .hostToController, packet: HCIPacket(type: type, bytes: bytes))
        return PacketDissector().dissect(record).summary
    }

    /// A vendor command (OGF 0x3F) with one parameter byte: "1 parameter byte", not "bytes".
    @Test func oneParameterByteIsSingular() {
        #expect(summary(.command, [0x01, 0xFC, 0x01, 0xAA]) == "1 parameter byte")
    }

    @Test func severalParameterBytesArePlural() {
        #expect(summary(.command, [0x01, 0xFC, 0x03, 0xAA, 0xBB, 0xCC]) == "3 parameter bytes")
    }
}
