import Foundation
import Testing
import TestSupport
import Wire
@testable import Capture

/// The three phone captures in ../shared/captures, checked record by record against tshark.
@Suite(.enabled(if: RealCaptures.available, "\(RealCaptures.skipMessage)"), .ownThread)
struct RealCaptureTests {
    @Test(arguments: RealCaptures.files)
    func readsToTheEndWithoutErrors(name: String) throws {
        var reader = try CaptureFile.open(path: RealCaptures.path(name))
        let records = try reader.readAll()
        #expect(!records.isEmpty)
        #expect(reader.offset == (try RealCaptures.bytes(name)).count)
        #expect(reader.recordIndex == records.count)
        // Timestamps in a sane window (2015…2030) and never going backwards by much.
        #expect(records.allSatisfy { $0.timestampMicros > 1_420_070_400_000_000 && $0.timestampMicros < 1_893_456_000_000_000 })
    }

    @Test(arguments: RealCaptures.files)
    func fileMemoryAndTinyBufferReadersAgree(name: String) throws {
        let bytes = try RealCaptures.bytes(name)
        let fromMemory = try readAllRecords(bytes)
        var fromFile = try CaptureFile.open(path: RealCaptures.path(name))
        let fileRecords = try fromFile.readAll()
        // A 37-byte buffer splits almost every header and payload across refills.
        var tiny = try CaptureFile.open(path: RealCaptures.path(name), chunkSize: 37)
        let tinyRecords = try tiny.readAll()
        #expect(fileRecords == fromMemory)
        #expect(tinyRecords == fromMemory)
    }

    @Test(.enabled(if: TShark.available, "\(TShark.skipMessage)"), arguments: RealCaptures.files)
    func countsMatchTShark(name: String) throws {
        let path = RealCaptures.path(name)
        let records = try readAllRecords(try RealCaptures.bytes(name))
        #expect(records.count == (try TShark.count(path)))
        #expect(records.filter { $0.packet.type == .acl }.count == (try TShark.count(path, filter: "bthci_acl")))
    }

    /// Every record's time, direction, type and length equal tshark's frame.time_epoch,
    /// hci_h4.direction, hci_h4.type and frame.len.
    @Test(.enabled(if: TShark.available, "\(TShark.skipMessage)"), arguments: RealCaptures.files)
    func everyRecordMatchesTShark(name: String) throws {
        let path = RealCaptures.path(name)
        let records = try readAllRecords(try RealCaptures.bytes(name))
        let lines = try TShark.fields(path, ["frame.time_epoch", "hci_h4.direction", "hci_h4.type", "frame.len"])
        #expect(lines.count == records.count)
        var mismatches = 0
        for (record, line) in zip(records, lines) {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 4 else { mismatches += 1; continue }
            let expected = "\(TShark.micros(f[0]) ?? -1) \(f[1]) \(f[2]) \(f[3])"
            let got = "\(record.timestampMicros) 0x0\(record.direction.rawValue) 0x0\(record.packet.type.rawValue) \(record.packet.bytes.count + 1)"
            if expected != got {
                mismatches += 1
                if mismatches < 5 { Issue.record("record at offset \(record.fileOffset): tshark \(expected), we \(got)") }
            }
        }
        #expect(mismatches == 0)
    }
}

extension TShark {
    /// `tshark -T fields` output, one line per frame.
    static func fields(_ path: String, _ names: [String]) throws -> [String] {
        guard available else { return [] }
        return try SharedCaptures.tshark(["-r", path, "-T", "fields"] + names.flatMap { ["-e", $0] })
            .split(separator: "\n").map(String.init)
    }

    /// "1612150079.092423000" → 1612150079092423.
    static func micros(_ epoch: String) -> Int64? {
        let parts = epoch.split(separator: ".")
        guard parts.count == 2, let seconds = Int64(parts[0]) else { return nil }
        let fraction = String(parts[1].prefix(6)).padding(toLength: 6, withPad: "0", startingAt: 0)
        guard let micros = Int64(fraction) else { return nil }
        return seconds * 1_000_000 + micros
    }
}
