import Testing
import Wire
@testable import Capture

/// Hand-built pcap files. Layout: draft-ietf-opsawg-pcap §4 (24-byte file header: magic,
/// version 2.4, reserved ×2, snaplen, LinkType) and §5 (16-byte record header: seconds,
/// µs or ns, captured length, original length), in the byte order the magic shows.
/// LINKTYPE 201 prefixes each packet with a 4-byte big-endian direction word
/// (tcpdump.org/linktypes/LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR.html); LINKTYPE 187 has none.
@Suite struct PcapVectorTests {
    static func file(bigEndian: Bool, nanoseconds: Bool, linkType: UInt32,
                     records: [(seconds: UInt32, fraction: UInt32, data: [UInt8])]) -> [UInt8] {
        var b = Bytes(bigEndian: bigEndian)
        b.u32(nanoseconds ? 0xa1b2_3c4d : 0xa1b2_c3d4)
        b.u16(2); b.u16(4); b.u32(0); b.u32(0); b.u32(65535); b.u32(linkType)
        for r in records {
            b.u32(r.seconds); b.u32(r.fraction); b.u32(UInt32(r.data.count)); b.u32(UInt32(r.data.count))
            b.raw(r.data)
        }
        return b.bytes
    }

    static let sent: [UInt8] = [0, 0, 0, 0]
    static let received: [UInt8] = [0, 0, 0, 1]

    @Test(arguments: [false, true], [false, true])
    func linkType201(bigEndian: Bool, nanoseconds: Bool) throws {
        let fraction: UInt32 = nanoseconds ? 123_456_789 : 123_456
        let bytes = Self.file(bigEndian: bigEndian, nanoseconds: nanoseconds, linkType: 201, records: [
            (1_700_000_000, fraction, Self.sent + [0x01, 0x03, 0x0c, 0x00]),
            (1_700_000_001, 0, Self.received + [0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]),
            (1_700_000_002, 5, Self.received + [0x02, 0x40, 0x20, 0x00, 0x00]),
        ])
        if bigEndian {
            #expect(Array(bytes.prefix(4)) == (nanoseconds ? [0xa1, 0xb2, 0x3c, 0x4d] : [0xa1, 0xb2, 0xc3, 0xd4]))
        } else {
            #expect(Array(bytes.prefix(4)) == (nanoseconds ? [0x4d, 0x3c, 0xb2, 0xa1] : [0xd4, 0xc3, 0xb2, 0xa1]))
        }
        var reader = try CaptureReader(bytes: bytes)
        #expect(reader.format == .pcap(linktype: 201, nanoseconds: nanoseconds, bigEndian: bigEndian))
        let records = try reader.readAll()
        #expect(records.count == 3)
        #expect(records[0].timestampMicros == 1_700_000_000_123_456)
        #expect(records[0].packet == HCIPacket(type: .command, bytes: [0x03, 0x0c, 0x00]))
        #expect(records[0].direction == .hostToController)
        #expect(records[0].fileOffset == 24)
        #expect(records[1].direction == .controllerToHost)
        #expect(records[1].packet.type == .event)
        #expect(records[2].packet == HCIPacket(type: .acl, bytes: [0x40, 0x20, 0x00, 0x00]))
        #expect(records[2].timestampMicros == 1_700_000_002_000_000 + (nanoseconds ? 0 : 5))
        #expect(records.allSatisfy { $0.directionIsKnown })
    }

    /// LINKTYPE 187: commands go down and events up by definition; data packets have no
    /// direction in the file and are flagged `directionIsKnown == false`.
    @Test func linkType187() throws {
        let bytes = Self.file(bigEndian: false, nanoseconds: false, linkType: 187, records: [
            (10, 0, [0x01, 0x03, 0x0c, 0x00]),
            (11, 0, [0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]),
            (12, 0, [0x02, 0x40, 0x20, 0x00, 0x00]),
        ])
        let records = try readAllRecords(bytes)
        #expect(records.map(\.direction) == [.hostToController, .controllerToHost, .controllerToHost])
        #expect(records.map(\.directionIsKnown) == [true, true, false])
        #expect(records[2].packet.type == .acl)
    }

    @Test func pseudoHeaderTooShortIsABadRecord() throws {
        let bytes = Self.file(bigEndian: false, nanoseconds: false, linkType: 201, records: [
            (1, 0, [0, 0]),
            (2, 0, Self.received + [0x04, 0x0e, 0x00]),
        ])
        var reader = try CaptureReader(bytes: bytes)
        do {
            _ = try reader.next()
            Issue.record("expected an error")
        } catch {
            guard case .badRecord(offset: 40, _) = error else { Issue.record("got \(error)"); return }
        }
        #expect(try reader.next()?.packet.type == .event)
    }

    @Test func writerRecordLayout() throws {
        #expect(PcapFormat.fileHeader() == [0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                            0x00, 0x00, 0x04, 0x00, 201, 0, 0, 0])
        var out: [UInt8] = []
        let record = CaptureRecord(timestampMicros: 1_700_000_000_123_456, direction: .controllerToHost,
                                   packet: HCIPacket(type: .event, bytes: [0x0e, 0x00]))
        try PcapFormat.appendRecord(record, to: &out)
        var expected = Bytes(bigEndian: false)
        expected.u32(1_700_000_000); expected.u32(123_456); expected.u32(7); expected.u32(7)
        expected.raw([0, 0, 0, 1, 0x04, 0x0e, 0x00])
        #expect(out == expected.bytes)
    }

    @Test func writerRejectsTimestampsBefore1970() {
        var out: [UInt8] = []
        let record = CaptureRecord(timestampMicros: -1, direction: .controllerToHost,
                                   packet: HCIPacket(type: .event, bytes: [0x0e, 0x00]))
        #expect(throws: CaptureError.self) { try PcapFormat.appendRecord(record, to: &out) }
    }
}
