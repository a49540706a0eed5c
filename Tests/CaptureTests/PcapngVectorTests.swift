import Testing
import Wire
@testable import Capture

/// Builds pcapng files block by block. Layout: draft-ietf-opsawg-pcapng §3.1 (block:
/// type, total length, body padded to 32 bits, total length again), §3.5 (options: code,
/// length, value padded to 32 bits, opt_endofopt = 0), §4.1 SHB (byte-order magic
/// 0x1A2B3C4D, version 1.0, section length), §4.2 IDB (LinkType u16, reserved u16, SnapLen,
/// if_tsresol = 9, if_tsoffset = 14), §4.3 EPB (interface, timestamp high/low, captured and
/// original length, data, epb_flags = 2), §4.4 SPB (original length, data), Appendix A
/// (obsolete Packet Block).
struct PcapngBuilder {
    var out: Bytes

    init(bigEndian: Bool = false) {
        out = Bytes(bigEndian: bigEndian)
        sectionHeader()
    }

    var bytes: [UInt8] { out.bytes }

    mutating func block(_ type: UInt32, _ fill: (inout Bytes) -> Void) {
        var body = Bytes(bigEndian: out.bigEndian)
        fill(&body)
        while body.bytes.count % 4 != 0 { body.u8(0) }
        let length = UInt32(12 + body.bytes.count)
        out.u32(type); out.u32(length); out.raw(body.bytes); out.u32(length)
    }

    static func options(_ list: [(UInt16, [UInt8])], into b: inout Bytes) {
        guard !list.isEmpty else { return }
        for (code, value) in list {
            b.u16(code); b.u16(UInt16(value.count)); b.raw(value)
            while b.bytes.count % 4 != 0 { b.u8(0) }
        }
        b.u16(0); b.u16(0)
    }

    mutating func sectionHeader() {
        block(0x0a0d_0d0a) { b in
            b.u32(0x1a2b_3c4d); b.u16(1); b.u16(0); b.u64(UInt64.max)
        }
    }

    mutating func interface(linkType: UInt16, snapLength: UInt32 = 0, options: [(UInt16, [UInt8])] = []) {
        block(1) { b in
            b.u16(linkType); b.u16(0); b.u32(snapLength)
            Self.options(options, into: &b)
        }
    }

    mutating func enhancedPacket(interface: UInt32 = 0, timestamp: UInt64, data: [UInt8], options: [(UInt16, [UInt8])] = []) {
        block(6) { b in
            b.u32(interface); b.u32(UInt32(timestamp >> 32)); b.u32(UInt32(truncatingIfNeeded: timestamp))
            b.u32(UInt32(data.count)); b.u32(UInt32(data.count)); b.raw(data)
            while b.bytes.count % 4 != 0 { b.u8(0) }
            Self.options(options, into: &b)
        }
    }

    mutating func simplePacket(originalLength: UInt32, data: [UInt8]) {
        block(3) { b in b.u32(originalLength); b.raw(data) }
    }

    mutating func obsoletePacket(interface: UInt16 = 0, timestamp: UInt64, data: [UInt8]) {
        block(2) { b in
            b.u16(interface); b.u16(0); b.u32(UInt32(timestamp >> 32)); b.u32(UInt32(truncatingIfNeeded: timestamp))
            b.u32(UInt32(data.count)); b.u32(UInt32(data.count)); b.raw(data)
        }
    }

    /// A value in the builder's byte order, for option payloads.
    func u32(_ v: UInt32) -> [UInt8] { var b = Bytes(bigEndian: out.bigEndian); b.u32(v); return b.bytes }
    func u64(_ v: UInt64) -> [UInt8] { var b = Bytes(bigEndian: out.bigEndian); b.u64(v); return b.bytes }
}

@Suite struct PcapngVectorTests {
    static let reset: [UInt8] = [0, 0, 0, 0, 0x01, 0x03, 0x0c, 0x00]          // phdr sent + HCI_Reset
    static let complete: [UInt8] = [0, 0, 0, 1, 0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]

    @Test(arguments: [false, true])
    func enhancedPacketsDefaultMicroseconds(bigEndian: Bool) throws {
        var p = PcapngBuilder(bigEndian: bigEndian)
        p.interface(linkType: 201)
        p.enhancedPacket(timestamp: 1_700_000_000_123_456, data: Self.reset)
        p.enhancedPacket(timestamp: 1_700_000_000_123_999, data: Self.complete)
        let bytes = p.bytes
        // SHB: type 0a0d0d0a (same both ways), then the length and byte-order magic in section order.
        #expect(Array(bytes[0..<12]) == (bigEndian
            ? [0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 28, 0x1a, 0x2b, 0x3c, 0x4d]
            : [0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a]))
        var reader = try CaptureReader(bytes: bytes)
        #expect(reader.format == .pcapng)
        let records = try reader.readAll()
        #expect(records.count == 2)
        #expect(records[0].timestampMicros == 1_700_000_000_123_456)
        #expect(records[0].direction == .hostToController)
        #expect(records[0].packet == HCIPacket(type: .command, bytes: [0x03, 0x0c, 0x00]))
        #expect(records[0].fileOffset == 28 + 20)
        #expect(records[1].direction == .controllerToHost)
        #expect(records[1].packet.type == .event)
        #expect(records[1].timestampMicros == 1_700_000_000_123_999)
    }

    @Test(arguments: [false, true])
    func nanosecondResolution(bigEndian: Bool) throws {
        var p = PcapngBuilder(bigEndian: bigEndian)
        p.interface(linkType: 201, options: [(9, [9])])   // if_tsresol = 10^-9
        p.enhancedPacket(timestamp: 1_700_000_000_123_456_789, data: Self.reset)
        let records = try readAllRecords(p.bytes)
        #expect(records.map(\.timestampMicros) == [1_700_000_000_123_456])
    }

    @Test func binaryResolutionAndOffset() throws {
        var p = PcapngBuilder()
        // if_tsresol 0x8a = 2^-10 s; if_tsoffset = 100 s.
        p.interface(linkType: 201, options: [(9, [0x8a]), (14, p.u64(100))])
        p.enhancedPacket(timestamp: 5 * 1024, data: Self.reset)
        let records = try readAllRecords(p.bytes)
        #expect(records.map(\.timestampMicros) == [105_000_000])
    }

    @Test func millisecondResolution() throws {
        var p = PcapngBuilder()
        p.interface(linkType: 201, options: [(9, [3])])
        p.enhancedPacket(timestamp: 1_700_000_000_123, data: Self.reset)
        #expect(try readAllRecords(p.bytes).map(\.timestampMicros) == [1_700_000_000_123_000])
    }

    @Test func simplePacketUsesFirstInterface() throws {
        var p = PcapngBuilder()
        p.interface(linkType: 201, snapLength: 8)
        p.interface(linkType: 187)
        p.simplePacket(originalLength: 9, data: Self.reset)          // snapped to 8 bytes
        p.simplePacket(originalLength: 11, data: Self.complete)      // snapLength 8 cuts it too
        let records = try readAllRecords(p.bytes)
        #expect(records.count == 2)
        #expect(records[0].packet == HCIPacket(type: .command, bytes: [0x03, 0x0c, 0x00]))
        #expect(records[0].timestampMicros == 0)
        #expect(Array(records[1].packet.bytes) == [0x0e, 0x04, 0x01])
    }

    @Test func otherBlocksAreSkippedByLength() throws {
        var p = PcapngBuilder()
        p.block(4) { b in b.u16(1); b.u16(8); b.raw([192, 168, 0, 1]); b.raw(Array("a.b\0".utf8)); b.u32(0) }   // NRB
        p.interface(linkType: 201)
        p.enhancedPacket(timestamp: 1, data: Self.reset)
        p.block(5) { b in b.u32(0); b.u32(0); b.u32(2) }              // ISB
        p.block(0x4000_0bad) { b in b.u32(32473); b.raw([1, 2, 3, 4, 5]) }   // custom block
        p.block(0xa) { b in b.u32(0x544c_534b); b.u32(0) }            // Decryption Secrets Block
        p.enhancedPacket(timestamp: 2, data: Self.complete)
        var reader = try CaptureReader(bytes: p.bytes)
        let records = try reader.readAll()
        #expect(records.count == 2)
        #expect(reader.recordIndex == 2)
        let notes = reader.takeNotes()
        #expect(notes.count == 4)
        guard notes.count == 4 else { return }
        #expect(notes[0].kind == .pcapngBlock(type: 4, length: 28))
        #expect(notes[0].fileOffset == 28)
        #expect(notes[1].kind == .pcapngBlock(type: 5, length: 24))
        #expect(notes[2].description.contains("Custom Block"))
        #expect(notes[3].description.contains("Decryption Secrets Block"))
    }

    @Test func sectionsSwitchByteOrderAndResetInterfaces() throws {
        var first = PcapngBuilder(bigEndian: false)
        first.interface(linkType: 201)
        first.enhancedPacket(timestamp: 1, data: Self.reset)
        var second = PcapngBuilder(bigEndian: true)
        second.interface(linkType: 187)
        second.enhancedPacket(timestamp: 2, data: [0x04, 0x0e, 0x00])
        let records = try readAllRecords(first.bytes + second.bytes)
        #expect(records.map(\.packet.type) == [.command, .event])
        #expect(records.map(\.timestampMicros) == [1, 2])
        #expect(records.map(\.direction) == [.hostToController, .controllerToHost])
    }

    /// LINKTYPE 187 data packets take their direction from epb_flags bits 0-1 (§4.3.1:
    /// 01 inbound, 10 outbound) when present.
    @Test func linkType187DirectionFromPacketFlags() throws {
        var p = PcapngBuilder(bigEndian: true)
        p.interface(linkType: 187)
        let acl: [UInt8] = [0x02, 0x40, 0x20, 0x00, 0x00]
        p.enhancedPacket(timestamp: 1, data: acl, options: [(2, p.u32(1))])
        p.enhancedPacket(timestamp: 2, data: acl, options: [(2, p.u32(2))])
        p.enhancedPacket(timestamp: 3, data: acl)
        p.enhancedPacket(timestamp: 4, data: [0x01, 0x03, 0x0c, 0x00], options: [(2, p.u32(1))])
        let records = try readAllRecords(p.bytes)
        #expect(records.map(\.direction) == [.controllerToHost, .hostToController, .controllerToHost, .hostToController])
        #expect(records.map(\.directionIsKnown) == [true, true, false, true])
    }

    @Test func obsoletePacketBlock() throws {
        var p = PcapngBuilder()
        p.interface(linkType: 201)
        p.obsoletePacket(timestamp: 42, data: Self.complete)
        let records = try readAllRecords(p.bytes)
        #expect(records.map(\.timestampMicros) == [42])
        #expect(records.first?.packet.type == .event)
    }

    @Test func packetOnUnsupportedInterfaceIsSkippedWithAnError() throws {
        var p = PcapngBuilder()
        p.interface(linkType: 1)          // Ethernet
        p.interface(linkType: 201)
        p.enhancedPacket(interface: 0, timestamp: 1, data: [1, 2, 3, 4])
        p.enhancedPacket(interface: 1, timestamp: 2, data: Self.reset)
        p.enhancedPacket(interface: 7, timestamp: 3, data: Self.reset)
        p.enhancedPacket(interface: 1, timestamp: 4, data: Self.complete)
        var reader = try CaptureReader(bytes: p.bytes)
        do {
            _ = try reader.next()
            Issue.record("expected an error")
        } catch {
            #expect(error == .unsupportedInterfaceLinkType(offset: 28 + 20 + 20, interface: 0, linkType: 1))
            #expect(!error.endsStream)
            #expect(error.description.contains("ETHERNET"))
        }
        #expect(try reader.next()?.timestampMicros == 2)
        do {
            _ = try reader.next()
            Issue.record("expected an error")
        } catch {
            guard case .badRecord = error else { Issue.record("got \(error)"); return }
            #expect(error.description.contains("interface 7"))
        }
        #expect(try reader.next()?.timestampMicros == 4)
        #expect(try reader.next() == nil)
        #expect(reader.recordIndex == 4)
    }

    @Test func trailingLengthMismatchEndsTheStream() throws {
        var p = PcapngBuilder()
        p.interface(linkType: 201)
        p.enhancedPacket(timestamp: 1, data: Self.reset)
        p.enhancedPacket(timestamp: 2, data: Self.reset)
        var bytes = p.bytes
        let secondEPB = 28 + 20 + 40
        bytes[secondEPB + 36] = 0x30     // trailing length 0x30 instead of 0x28
        var reader = try CaptureReader(bytes: bytes)
        #expect(try reader.next()?.timestampMicros == 1)
        var firstError: CaptureError?
        do { _ = try reader.next() } catch { firstError = error }
        guard let firstError else { Issue.record("expected an error"); return }
        #expect(firstError == .malformed(offset: secondEPB + 36, reason: "trailing block total length 48 differs from the leading 40 (block at offset \(secondEPB))"))
        #expect(firstError.endsStream)
        do { _ = try reader.next(); Issue.record("expected the same error again") } catch { #expect(error == firstError) }
    }

    @Test func badByteOrderMagic() {
        var p = PcapngBuilder()
        p.out.bytes[8] = 0x00
        do {
            _ = try CaptureReader(bytes: p.bytes)
            Issue.record("expected an error")
        } catch {
            guard case .malformed(offset: 8, _) = error else { Issue.record("got \(error)"); return }
        }
    }

    @Test func unsupportedMajorVersion() {
        var p = PcapngBuilder()
        p.out.bytes[12] = 2
        do {
            _ = try CaptureReader(bytes: p.bytes)
            Issue.record("expected an error")
        } catch {
            #expect(error == .unsupportedVersion(offset: 12, format: "pcapng", version: 2, supported: "1.x"))
        }
    }

    @Test func timestampUnitArithmetic() {
        #expect(PcapngTimestampUnit(option: 6).micros(123) == 123)
        #expect(PcapngTimestampUnit(option: 0).micros(2) == 2_000_000)
        #expect(PcapngTimestampUnit(option: 0).micros(UInt64.max) == nil)
        #expect(PcapngTimestampUnit(option: 127).micros(UInt64.max) == 0)
        #expect(PcapngTimestampUnit(option: 0x80).micros(3) == 3_000_000)
        #expect(PcapngTimestampUnit(option: 0x80 | 20).micros(1 << 20) == 1_000_000)
        #expect(PcapngTimestampUnit(option: 0x80 | 127).micros(UInt64.max) == 0)
        #expect(PcapngTimestampUnit(option: 0x80 | 64).micros(UInt64.max) == 999_999)
    }
}
