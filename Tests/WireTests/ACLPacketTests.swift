import Testing
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }

@Suite struct ACLPacketTests {
    // Core Spec v5.4 Vol 4, Part E, §5.4.2 HCI ACL Data packets: Handle (12 bits), PB flag
    // (bits 12–13), BC flag (bits 14–15), Data_Total_Length (16 bits), then the data.
    // Here: handle 0x040, PB 0b10 (first automatically flushable), BC 0b00, length 9, carrying
    // an L2CAP B-frame with a Handle Value Notification.
    @Test func decodesHeaderAndDataFromSpecLayout() throws {
        let packet = try ACLPacket.decode(hx("40 20 09 00 05 00 04 00 1b 2a 00 06 48")[...])
        #expect(packet.header.handle == 0x0040)
        #expect(packet.header.packetBoundary == .firstFlushable)
        #expect(packet.header.broadcast == .pointToPoint)
        #expect(packet.header.dataTotalLength == 9)
        #expect(Array(packet.data) == hx("05 00 04 00 1b 2a 00 06 48"))
    }

    struct FlagVector: Sendable, CustomTestStringConvertible {
        let bytes: String
        let handle: UInt16
        let pb: ACLPacketBoundary
        let bc: UInt8
        var testDescription: String { bytes }
    }

    // Vol 4, Part E, §5.4.2: every PB value and a non-zero BC value land in the right bits.
    @Test(arguments: [
        FlagVector(bytes: "01 00 00 00", handle: 0x001, pb: .firstNonFlushable, bc: 0b00),
        FlagVector(bytes: "01 10 00 00", handle: 0x001, pb: .continuing, bc: 0b00),
        FlagVector(bytes: "ff 2e 00 00", handle: 0xEFF, pb: .firstFlushable, bc: 0b00),
        FlagVector(bytes: "ff 3f 00 00", handle: 0xFFF, pb: .complete, bc: 0b00),
        FlagVector(bytes: "02 50 00 00", handle: 0x002, pb: .continuing, bc: 0b01),
        FlagVector(bytes: "02 c0 00 00", handle: 0x002, pb: .firstNonFlushable, bc: 0b11),
    ])
    func flagBits(_ v: FlagVector) throws {
        let bytes = hx(v.bytes)
        let packet = try ACLPacket.decode(bytes[...])
        #expect(packet.header.handle == v.handle)
        #expect(packet.header.packetBoundary == v.pb)
        #expect(packet.header.broadcast.rawValue == v.bc)
        #expect(packet.encoded == bytes)
    }

    @Test func packetBoundaryNames() {
        #expect(ACLPacketBoundary.firstNonFlushable.name == "first non-flushable")
        #expect(ACLPacketBoundary.continuing.name == "continuing")
        #expect(ACLPacketBoundary.firstFlushable.name == "first flushable")
        #expect(ACLPacketBoundary.complete.name == "complete")
        #expect(ACLPacketBoundary.allCases.filter(\.isStart) == [.firstNonFlushable, .firstFlushable, .complete])
    }

    @Test func roundTripsEveryFlagCombination() throws {
        for pb in ACLPacketBoundary.allCases {
            for bc: UInt8 in 0...3 {
                let packet = ACLPacket(handle: 0x0ABC, packetBoundary: pb, broadcast: ACLBroadcastFlag(rawValue: bc),
                                       data: [1, 2, 3][...])
                let decoded = try ACLPacket.decode(packet.encoded[...])
                #expect(decoded == packet)
            }
        }
    }

    @Test func handleIsMaskedTo12Bits() {
        let header = ACLHeader(handle: 0xF123, packetBoundary: .continuing, dataTotalLength: 0)
        #expect(header.handle == 0x0123)
        #expect(header.encoded == hx("23 11 00 00"))
    }

    @Test func encodeWritesTheDataLengthNotAStaleHeader() {
        var packet = ACLPacket(handle: 1, packetBoundary: .firstNonFlushable, data: [1, 2][...])
        packet.data = [1, 2, 3, 4][...]
        #expect(packet.encoded == hx("01 00 04 00 01 02 03 04"))
    }

    @Test func truncatedHeaderThrows() {
        #expect(throws: WireError.truncated(field: "ACL data total length", needed: 2, available: 1)) {
            try ACLPacket.decode(hx("40 20 09")[...])
        }
    }

    @Test func lengthOverrunThrows() {
        #expect(throws: WireError.truncated(field: "ACL data", needed: 9, available: 2)) {
            try ACLPacket.decode(hx("40 20 09 00 05 00")[...])
        }
    }

    @Test func trailingBytesThrow() {
        #expect(throws: WireError.self) {
            try ACLPacket.decode(hx("40 20 01 00 05 00")[...])
        }
    }

    @Test func readerDecodingLeavesFollowingBytes() throws {
        var reader = ByteReader(hx("40 20 01 00 aa 41 20 00 00"))
        let first = try ACLPacket(decoding: &reader)
        let second = try ACLPacket(decoding: &reader)
        #expect(Array(first.data) == [0xAA])
        #expect(second.handle == 0x41 && second.data.isEmpty)
        #expect(reader.isAtEnd)
    }

    @Test func fromHCIPacketChecksTheType() throws {
        let bytes = hx("40 20 01 00 aa")
        #expect(try ACLPacket(HCIPacket(type: .acl, bytes: bytes)).data == [0xAA][...])
        #expect(throws: WireError.self) { try ACLPacket(HCIPacket(type: .event, bytes: bytes)) }
        let packet = try ACLPacket(HCIPacket(type: .acl, bytes: bytes))
        #expect(packet.hciPacket.h4Bytes == [0x02] + bytes)
    }

    @Test func describesFields() throws {
        let packet = try ACLPacket.decode(hx("40 20 01 00 aa")[...])
        var fields = FieldList()
        packet.describeFields(into: &fields)
        #expect(fields.value(of: "Handle") == "0x0040")
        #expect(fields.value(of: "Packet boundary") == "first flushable (0b10)")
        #expect(packet.summary == "handle 0x0040 first flushable dlen 1")
    }
}
