import Testing
import Wire
@testable import Capture

/// Hand-built btsnoop files. Layout: RFC 1761 (snoop v2) framing as adapted by btsnoop v1 —
/// 16-byte header "btsnoop\0", version (u32), datalink (u32); 24-byte record header: original
/// length, included length, flags, cumulative drops (u32 each), timestamp (i64 µs since
/// 0000-01-01); all big-endian. Datalink 2001 flags = adapter index << 16 | monitor opcode
/// (BlueZ monitor/btsnoop definitions).
@Suite struct BtsnoopVectorTests {
    static let unixMicros: Int64 = 1_700_000_000_123_456

    static func file(datalink: UInt32, records: [(flags: UInt32, data: [UInt8])], drops: UInt32 = 0) -> [UInt8] {
        var b = Bytes(bigEndian: true)
        b.raw(Array("btsnoop".utf8) + [0])
        b.u32(1)
        b.u32(datalink)
        for (i, r) in records.enumerated() {
            b.u32(UInt32(r.data.count))
            b.u32(UInt32(r.data.count))
            b.u32(r.flags)
            b.u32(drops)
            b.u64(UInt64(unixMicros + Int64(i)) &+ 0x00dc_ddb3_0f2f_8000)
            b.raw(r.data)
        }
        return b.bytes
    }

    @Test func headerBytesAreTheDocumentedOnes() {
        // "btsnoop\0", version 1, datalink 1002.
        #expect(BtsnoopFormat.fileHeader() == [0x62, 0x74, 0x73, 0x6e, 0x6f, 0x6f, 0x70, 0x00,
                                               0, 0, 0, 1, 0, 0, 0x03, 0xea])
    }

    @Test func epochOffsetIsTheConventionalConstant() {
        // 0x00dcddb30f2f8000 µs = 719,540 days of 86,400 s: the value btsnoop writers
        // (Android, BlueZ) and Wireshark agree on; RealCaptureTests checks every timestamp
        // against tshark's frame.time_epoch.
        #expect(BtsnoopFormat.epochOffsetMicros == 719_540 * 86_400 * 1_000_000)
    }

    /// Datalink 1002: H4 indicator in the data, direction in flags bit 0.
    @Test func datalink1002() throws {
        // HCI_Reset (Core Spec v5.4 Vol 4, Part E, §7.3.2) and its Command Complete (§7.7.14).
        let bytes = Self.file(datalink: 1002, records: [
            (2, [0x01, 0x03, 0x0c, 0x00]),
            (3, [0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]),
            (1, [0x02, 0x40, 0x20, 0x01, 0x00, 0xaa]),
        ], drops: 7)
        var reader = try CaptureReader(bytes: bytes)
        #expect(reader.format == .btsnoop(datalink: 1002))
        let records = try reader.readAll()
        #expect(records.count == 3)
        #expect(records[0].packet == HCIPacket(type: .command, bytes: [0x03, 0x0c, 0x00]))
        #expect(records[0].direction == .hostToController)
        #expect(records[0].timestampMicros == Self.unixMicros)
        #expect(records[0].fileOffset == 16)
        #expect(records[1].packet.type == .event)
        #expect(records[1].direction == .controllerToHost)
        #expect(records[1].fileOffset == 16 + 24 + 4)
        #expect(records[2].packet == HCIPacket(type: .acl, bytes: [0x40, 0x20, 0x01, 0x00, 0xaa]))
        #expect(records[2].direction == .controllerToHost)
        #expect(records[2].timestampMicros == Self.unixMicros + 2)
        #expect(reader.cumulativeDrops == 7)
        #expect(reader.recordIndex == 3)
        #expect(reader.recordsReturned == 3)
    }

    /// Datalink 1001: no H4 byte; flags bit 1 = command/event, bit 0 = received.
    @Test func datalink1001() throws {
        let bytes = Self.file(datalink: 1001, records: [
            (0b10, [0x03, 0x0c, 0x00]),                 // command
            (0b11, [0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]), // event
            (0b00, [0x40, 0x00, 0x00, 0x00]),           // ACL host → controller
            (0b01, [0x40, 0x20, 0x00, 0x00]),           // ACL controller → host
        ])
        let records = try readAllRecords(bytes)
        #expect(records.map(\.packet.type) == [.command, .event, .acl, .acl])
        #expect(records.map(\.direction) == [.hostToController, .controllerToHost, .hostToController, .controllerToHost])
        #expect(Array(records[1].packet.bytes) == [0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00])
    }

    /// Datalink 2001 (Linux monitor): opcode in the low 16 bits of the flags, adapter index in
    /// the high 16; non-packet opcodes are skipped and noted.
    @Test func datalink2001() throws {
        let newIndex: [UInt8] = [0x00, 0x01] + [1, 2, 3, 4, 5, 6] + Array("hci1\0\0\0\0".utf8)
        let bytes = Self.file(datalink: 2001, records: [
            (1 << 16 | 0, newIndex),                        // New Index
            (1 << 16 | 8, []),                              // Open Index
            (1 << 16 | 2, [0x03, 0x0c, 0x00]),              // Command
            (1 << 16 | 3, [0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]), // Event
            (0 << 16 | 12, Array("note\0".utf8)),           // System Note
            (1 << 16 | 4, [0x01, 0x00, 0x00, 0x00]),        // ACL TX
            (1 << 16 | 5, [0x01, 0x20, 0x00, 0x00]),        // ACL RX
            (2 << 16 | 7, [0x02, 0x00, 0x00]),              // SCO RX
            (2 << 16 | 18, [0x03, 0x00, 0x00, 0x00]),       // ISO TX
            (2 << 16 | 19, [0x03, 0x00, 0x00, 0x00]),       // ISO RX
            (2 << 16 | 13, Array("user\0".utf8)),           // User Logging
        ])
        var reader = try CaptureReader(bytes: bytes)
        #expect(reader.format == .btsnoop(datalink: 2001))
        let records = try reader.readAll()
        #expect(records.map(\.packet.type) == [.command, .event, .acl, .acl, .sco, .iso, .iso])
        #expect(records.map(\.direction) == [.hostToController, .controllerToHost, .hostToController,
                                             .controllerToHost, .controllerToHost, .hostToController, .controllerToHost])
        #expect(records.map(\.adapterIndex) == [1, 1, 1, 1, 2, 2, 2])
        #expect(Array(records[0].packet.bytes) == [0x03, 0x0c, 0x00])
        #expect(reader.recordsSkipped == 4)
        #expect(reader.recordIndex == 11)
        let notes = reader.takeNotes()
        #expect(notes.map(\.kind) == [
            .monitorRecord(opcode: 0, adapterIndex: 1), .monitorRecord(opcode: 8, adapterIndex: 1),
            .monitorRecord(opcode: 12, adapterIndex: 0), .monitorRecord(opcode: 13, adapterIndex: 2),
        ])
        #expect(notes[0].fileOffset == 16)
        #expect(notes[0].description.contains("New Index"))
        #expect(reader.takeNotes().isEmpty)
    }

    @Test func unknownH4TypeSkipsOnlyThatRecord() throws {
        let bytes = Self.file(datalink: 1002, records: [
            (2, [0x01, 0x03, 0x0c, 0x00]),
            (0, [0x09, 0xde, 0xad]),
            (3, [0x04, 0x0e, 0x00]),
        ])
        var reader = try CaptureReader(bytes: bytes)
        #expect(try reader.next()?.packet.type == .command)
        do {
            _ = try reader.next()
            Issue.record("expected an unknown packet type error")
        } catch {
            #expect(error == .unknownPacketType(offset: 16 + 28 + 24, type: 0x09))
            #expect(!error.endsStream)
            #expect(error.description.contains("0x09"))
        }
        #expect(try reader.next()?.packet.type == .event)
        #expect(try reader.next() == nil)
    }

    @Test func emptyH4RecordIsABadRecord() throws {
        let bytes = Self.file(datalink: 1002, records: [(0, []), (3, [0x04, 0x0e, 0x00])])
        var reader = try CaptureReader(bytes: bytes)
        do {
            _ = try reader.next()
            Issue.record("expected an error")
        } catch {
            guard case .badRecord(offset: 40, _) = error else { Issue.record("got \(error)"); return }
        }
        #expect(try reader.next()?.packet.type == .event)
    }

    /// The writer's bytes equal what the layout prescribes.
    @Test func writerRecordLayout() throws {
        var out: [UInt8] = []
        let record = CaptureRecord(timestampMicros: Self.unixMicros, direction: .controllerToHost,
                                   packet: HCIPacket(type: .event, bytes: [0x0e, 0x00]))
        try BtsnoopFormat.appendRecord(record, to: &out)
        var expected = Bytes(bigEndian: true)
        expected.u32(3); expected.u32(3); expected.u32(3); expected.u32(0)
        expected.u64(UInt64(Self.unixMicros) + 0x00dc_ddb3_0f2f_8000)
        expected.raw([0x04, 0x0e, 0x00])
        #expect(out == expected.bytes)
    }
}
