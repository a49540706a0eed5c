import Testing
import Wire
@testable import Capture

/// Malformed files end in a `CaptureError` that names the offset, never in a crash.
@Suite struct CaptureErrorTests {
    static func error(opening bytes: [UInt8]) -> CaptureError? {
        do {
            _ = try CaptureReader(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    static let threeBtsnoopRecords = BtsnoopVectorTests.file(datalink: 1002, records: [
        (2, [0x01, 0x03, 0x0c, 0x00]),
        (3, [0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]),
        (1, [0x02, 0x40, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x1b]),
    ])

    @Test func wrongMagic() {
        let e = Self.error(opening: Array("hello, this is not a capture".utf8))
        #expect(e == .notACaptureFile(firstBytes: Array("hello, this is n".utf8)))
        #expect(e?.description.hasPrefix("not a btsnoop, pcap or pcapng file: first bytes 68 65 6c 6c 6f") == true)
    }

    @Test func zeroLengthFile() throws {
        #expect(Self.error(opening: []) == .emptyFile)
        let dir = try TemporaryDirectory()
        let path = try dir.write([], to: "empty.btsnoop")
        do {
            _ = try CaptureFile.open(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error == .emptyFile)
            #expect(error.description.contains("empty file"))
        }
    }

    @Test func missingFileNamesTheErrnoText() {
        do {
            _ = try CaptureFile.open(path: "/nonexistent/dir/x.btsnoop")
            Issue.record("expected an error")
        } catch {
            #expect(error == .cannotOpen(path: "/nonexistent/dir/x.btsnoop", errno: 2, reason: "No such file or directory"))
            #expect(error.description == "cannot open /nonexistent/dir/x.btsnoop: No such file or directory (errno 2)")
        }
    }

    @Test func directoryIsAReadError() throws {
        let dir = try TemporaryDirectory()
        do {
            _ = try CaptureFile.open(path: dir.path)
            Issue.record("expected an error")
        } catch {
            #expect(error == .ioFailed(operation: "read", offset: 0, errno: 21, reason: "Is a directory"))
        }
    }

    @Test func tooShortForAMagic() {
        #expect(Self.error(opening: [0x62, 0x74]) ==
            .truncated(offset: 0, what: "file header", lengthName: "magic length", length: 4, available: 2))
        #expect(Self.error(opening: [0x99]) == .notACaptureFile(firstBytes: [0x99]))
    }

    @Test func truncatedFileHeaders() {
        #expect(Self.error(opening: Array(Self.threeBtsnoopRecords.prefix(10))) ==
            .truncated(offset: 0, what: "btsnoop file header", lengthName: "header length", length: 16, available: 10))
        let pcap = PcapVectorTests.file(bigEndian: false, nanoseconds: false, linkType: 201, records: [])
        #expect(Self.error(opening: Array(pcap.prefix(20))) ==
            .truncated(offset: 0, what: "pcap file header", lengthName: "header length", length: 24, available: 20))
        let pcapng = PcapngBuilder().bytes
        if case .truncated(offset: 0, _, _, _, _)? = Self.error(opening: Array(pcapng.prefix(20))) {} else {
            Issue.record("expected a truncated SHB")
        }
    }

    @Test func unsupportedBtsnoopDatalink() {
        var bytes = Self.threeBtsnoopRecords
        bytes[14] = 0x03; bytes[15] = 0xeb   // 1003, BCSP
        let e = Self.error(opening: bytes)
        #expect(e == .unsupportedDatalink(offset: 12, datalink: 1003))
        #expect(e?.description.contains("1003") == true)
        #expect(e?.description.contains("supported: 1001") == true)
        #expect(e?.description.contains("2001") == true)
    }

    @Test func unsupportedBtsnoopVersion() {
        var bytes = Self.threeBtsnoopRecords
        bytes[11] = 2
        #expect(Self.error(opening: bytes) == .unsupportedVersion(offset: 8, format: "btsnoop", version: 2, supported: "1"))
    }

    @Test func unsupportedPcapLinkType() {
        let bytes = PcapVectorTests.file(bigEndian: true, nanoseconds: false, linkType: 1, records: [])
        let e = Self.error(opening: bytes)
        #expect(e == .unsupportedLinkType(offset: 20, linkType: 1))
        #expect(e?.description.contains("187") == true)
        #expect(e?.description.contains("201") == true)
    }

    /// All records before a cut-off last record come out; the next call names the offset.
    @Test func truncatedLastBtsnoopRecord() throws {
        let bytes = Array(Self.threeBtsnoopRecords.dropLast(4))
        let lastOffset = 16 + 28 + 31
        var reader = try CaptureReader(bytes: bytes)
        let (records, error) = firstError(&reader)
        #expect(records.count == 2)
        #expect(error == .truncated(offset: lastOffset, what: "record", lengthName: "included length", length: 10, available: 6))
        #expect(error?.description == "truncated record at offset \(lastOffset) (included length 10, only 6 bytes left)")
        // Sticky: the reader does not pretend the file ended cleanly.
        do { _ = try reader.next(); Issue.record("expected the error again") } catch let again { #expect(again == error) }
    }

    @Test func truncatedRecordHeader() throws {
        let bytes = Array(Self.threeBtsnoopRecords.prefix(16 + 28 + 10))
        var reader = try CaptureReader(bytes: bytes)
        let (records, error) = firstError(&reader)
        #expect(records.count == 1)
        #expect(error == .truncated(offset: 44, what: "record header", lengthName: "header length", length: 24, available: 10))
    }

    @Test func truncatedLastPcapRecord() throws {
        let bytes = PcapVectorTests.file(bigEndian: false, nanoseconds: false, linkType: 201, records: [
            (1, 0, PcapVectorTests.sent + [0x01, 0x03, 0x0c, 0x00]),
            (2, 0, PcapVectorTests.received + [0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]),
        ])
        var reader = try CaptureReader(bytes: Array(bytes.dropLast(1)))
        let (records, error) = firstError(&reader)
        #expect(records.count == 1)
        #expect(error == .truncated(offset: 48, what: "record", lengthName: "included length", length: 11, available: 10))
    }

    @Test func truncatedLastPcapngBlock() throws {
        var p = PcapngBuilder()
        p.interface(linkType: 201)
        p.enhancedPacket(timestamp: 1, data: PcapngVectorTests.reset)
        p.enhancedPacket(timestamp: 2, data: PcapngVectorTests.complete)
        let cuts = [1, 4, 10, 30]
        for cut in cuts {
            var reader = try CaptureReader(bytes: Array(p.bytes.dropLast(cut)))
            let (records, error) = firstError(&reader)
            #expect(records.count == 1, "cut \(cut)")
            guard case let .truncated(offset, _, _, _, _)? = error else {
                Issue.record("cut \(cut): got \(String(describing: error))"); continue
            }
            #expect(offset == 88, "cut \(cut)")
        }
    }

    @Test func implausibleLengths() throws {
        var b = Bytes(bigEndian: true)
        b.raw(BtsnoopFormat.fileHeader())
        b.u32(2_000_000); b.u32(2_000_000); b.u32(0); b.u32(0); b.u64(0)
        var reader = try CaptureReader(bytes: b.bytes + [UInt8](repeating: 1, count: 64))
        let (_, e1) = firstError(&reader)
        #expect(e1 == .implausibleLength(offset: 20, field: "included length", value: 2_000_000,
                                         reason: "larger than the 1 MiB limit for one HCI record"))

        var c = Bytes(bigEndian: true)
        c.raw(BtsnoopFormat.fileHeader())
        c.u32(3); c.u32(4); c.u32(0); c.u32(0); c.u64(0); c.raw([1, 3, 12, 0])
        var reader2 = try CaptureReader(bytes: c.bytes)
        let (_, e2) = firstError(&reader2)
        #expect(e2 == .implausibleLength(offset: 20, field: "included length", value: 4,
                                         reason: "larger than the original length 3"))
        #expect(e2?.description == "implausible included length 4 at offset 20: larger than the original length 3")
    }

    @Test func snappedRecordsAreFine() throws {
        // Included < original (the writer cut the packet): read what is there.
        var b = Bytes(bigEndian: true)
        b.raw(BtsnoopFormat.fileHeader())
        b.u32(100); b.u32(4); b.u32(2); b.u32(0); b.u64(0); b.raw([1, 3, 12, 0])
        #expect(try readAllRecords(b.bytes).count == 1)
    }
}
