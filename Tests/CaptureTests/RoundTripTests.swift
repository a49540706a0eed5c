import Foundation
import Testing
import TestSupport
import Wire
@testable import Capture

/// read → write (btsnoop and pcap) → read gives the same time, direction, type and bytes,
/// and tshark sees the same packets in the written files.
@Suite(.enabled(if: RealCaptures.available, "\(RealCaptures.skipMessage)"), .ownThread)
struct RealCaptureRoundTripTests {
    @Test(arguments: RealCaptures.files, ["btsnoop", "pcap"])
    func roundTrip(name: String, ext: String) throws {
        let original = try readAllRecords(try RealCaptures.bytes(name))
        let dir = try TemporaryDirectory()
        let path = dir.file("copy.\(ext)")
        let writer = try CaptureWriterFactory.create(path: path)
        for record in original { try writer.write(record) }
        try writer.close()

        var reader = try CaptureFile.open(path: path)
        #expect(reader.format == (ext == "pcap"
            ? .pcap(linktype: 201, nanoseconds: false, bigEndian: false)
            : .btsnoop(datalink: 1002)))
        let copy = try reader.readAll()
        #expect(copy.count == original.count)
        #expect(copy.map(\.essence) == original.map(\.essence))

        if TShark.available {
            let source = RealCaptures.path(name)
            #expect(try TShark.count(path) == (try TShark.count(source)))
            #expect(try TShark.count(path, filter: "bthci_acl") == (try TShark.count(source, filter: "bthci_acl")))
        }
    }
}

@Suite struct WriterTests {
    static let records: [CaptureRecord] = [
        CaptureRecord(timestampMicros: 1_700_000_000_000_001, direction: .hostToController,
                      packet: HCIPacket(type: .command, bytes: [0x03, 0x0c, 0x00])),
        CaptureRecord(timestampMicros: 1_700_000_000_000_002, direction: .controllerToHost,
                      packet: HCIPacket(type: .event, bytes: [0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00])),
        CaptureRecord(timestampMicros: 1_700_000_000_999_999, direction: .hostToController,
                      packet: HCIPacket(type: .acl, bytes: [0x40, 0x00, 0x03, 0x00, 0x01, 0x02, 0x03])),
        CaptureRecord(timestampMicros: 1_700_000_001_000_000, direction: .controllerToHost,
                      packet: HCIPacket(type: .iso, bytes: [0x01, 0x00, 0x00, 0x00])),
        CaptureRecord(timestampMicros: 1_700_000_001_000_000, direction: .controllerToHost,
                      packet: HCIPacket(type: .sco, bytes: [0x01, 0x00, 0x00])),
    ]

    @Test func inMemoryEncodersRoundTrip() throws {
        var btsnoop = BtsnoopFormat.fileHeader()
        var pcap = PcapFormat.fileHeader()
        for r in Self.records {
            try BtsnoopFormat.appendRecord(r, to: &btsnoop)
            try PcapFormat.appendRecord(r, to: &pcap)
        }
        #expect(try readAllRecords(btsnoop).map(\.essence) == Self.records.map(\.essence))
        #expect(try readAllRecords(pcap).map(\.essence) == Self.records.map(\.essence))
    }

    @Test func factoryChoosesByExtension() {
        #expect(CaptureWriterFactory.kind(forPath: "a/b/x.btsnoop") == .btsnoop)
        #expect(CaptureWriterFactory.kind(forPath: "btsnoop_hci.log") == .btsnoop)
        #expect(CaptureWriterFactory.kind(forPath: "/tmp/X.PCAP") == .pcap)
        #expect(CaptureWriterFactory.kind(forPath: "x.pcapng") == nil)
        #expect(CaptureWriterFactory.kind(forPath: "/tmp/.pcap") == nil)
        #expect(CaptureWriterFactory.kind(forPath: "dir.pcap/file") == nil)
        do {
            _ = try CaptureWriterFactory.create(path: "/tmp/out.txt")
            Issue.record("expected an error")
        } catch {
            #expect(error == .unsupportedFileExtension(path: "/tmp/out.txt"))
            #expect(error.description.contains(".btsnoop"))
            #expect(error.description.contains(".pcap"))
        }
    }

    @Test func createInMissingDirectoryFails() {
        do {
            _ = try CaptureWriterFactory.create(path: "/nonexistent/dir/x.pcap")
            Issue.record("expected an error")
        } catch {
            guard case .cannotOpen(_, 2, "No such file or directory") = error else { Issue.record("got \(error)"); return }
        }
    }

    /// Without close or flush, the file on disk holds every record written so far: each
    /// record went out in one write(2), nothing waits in a user-space buffer.
    @Test(arguments: ["btsnoop", "pcap"])
    func fileIsReadableAfterEveryRecord(ext: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("live.\(ext)")
        let writer = try CaptureWriterFactory.create(path: path)
        var empty = try CaptureFile.open(path: path)
        #expect(try empty.next() == nil)
        for (i, record) in Self.records.enumerated() {
            try writer.write(record)
            var reader = try CaptureFile.open(path: path)
            let seen = try reader.readAll()
            #expect(seen.map(\.essence) == Self.records.prefix(i + 1).map(\.essence))
        }
        try writer.flush()
        try writer.close()
        try writer.close()   // closing twice is harmless
        do {
            try writer.write(Self.records[0])
            Issue.record("expected an error")
        } catch {
            #expect(error == .writerClosed(path: path))
        }
    }

    /// A reader positioned at the end of a growing file picks up records written later.
    @Test func readerFollowsAGrowingFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("grow.btsnoop")
        let writer = try BtsnoopWriter(path: path)
        var reader = try CaptureFile.open(path: path)
        #expect(try reader.next() == nil)
        try writer.write(Self.records[0])
        #expect(try reader.next()?.essence == Self.records[0].essence)
        #expect(try reader.next() == nil)
        try writer.write(Self.records[1])
        #expect(try reader.next()?.essence == Self.records[1].essence)
        try writer.close()
    }

    @Test func readerCopiesAreIndependentCursors() throws {
        var btsnoop = BtsnoopFormat.fileHeader()
        for r in Self.records { try BtsnoopFormat.appendRecord(r, to: &btsnoop) }
        let dir = try TemporaryDirectory()
        let path = try dir.write(btsnoop, to: "x.btsnoop")
        var a = try CaptureFile.open(path: path)
        _ = try a.next()
        var b = a
        #expect(try a.next()?.essence == Self.records[1].essence)
        #expect(try a.next()?.essence == Self.records[2].essence)
        #expect(try b.next()?.essence == Self.records[1].essence)
    }

    /// Packets larger than the read buffer come through intact (read straight into place).
    @Test func recordsLargerThanTheBuffer() throws {
        var rng = SplitMix64(seed: 7)
        let payload = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let big = CaptureRecord(timestampMicros: 5, direction: .controllerToHost, packet: HCIPacket(type: .acl, bytes: payload))
        let dir = try TemporaryDirectory()
        for ext in ["btsnoop", "pcap"] {
            let path = dir.file("big.\(ext)")
            let writer = try CaptureWriterFactory.create(path: path)
            try writer.write(Self.records[0])
            try writer.write(big)
            try writer.write(Self.records[1])
            try writer.close()
            for chunk in [64, 1000, ChunkedByteSource.defaultChunkSize] {
                var reader = try CaptureFile.open(path: path, chunkSize: chunk)
                let records = try reader.readAll()
                #expect(records.map(\.essence) == [Self.records[0], big, Self.records[1]].map(\.essence), "\(ext) chunk \(chunk)")
            }
            // Cut inside the big packet: the error says how much was there.
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes.removeLast(bytes.count - 30_000)
            let cutPath = try dir.write(bytes, to: "cut.\(ext)")
            var fileReader = try CaptureFile.open(path: cutPath, chunkSize: 4096)
            var memoryReader = try CaptureReader(bytes: bytes)
            let fromFile = firstError(&fileReader)
            let fromMemory = firstError(&memoryReader)
            #expect(fromFile.records.count == 1)
            #expect(fromFile.error == fromMemory.error)
            guard case .truncated(_, "record", _, _, _)? = fromFile.error else {
                Issue.record("\(ext): got \(String(describing: fromFile.error))"); continue
            }
        }
    }
}
