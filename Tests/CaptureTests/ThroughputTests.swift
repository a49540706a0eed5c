import Foundation
import Testing
import Wire
@testable import Capture

/// Read speed and memory: prints records/s (run with `swift test -c release -Xswiftc
/// -enable-testing --filter Throughput` for the release figure) and checks that a large
/// capture streams in constant memory.
@Suite(.serialized) struct ThroughputTests {
    /// Resident set size now, from /proc/self/statm (pages × page size).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static var largestCapture: String? {
        RealCaptures.files.max { a, b in
            ((try? RealCaptures.bytes(a).count) ?? 0) < ((try? RealCaptures.bytes(b).count) ?? 0)
        }
    }

    @Test(.enabled(if: RealCaptures.available, "\(RealCaptures.skipMessage)"))
    func recordsPerSecondOnTheLargestCapture() throws {
        guard let name = Self.largestCapture else { return }
        let path = RealCaptures.path(name)
        let clock = ContinuousClock()
        var records = 0, passes = 0
        let start = clock.now
        while clock.now - start < .milliseconds(800) {
            var reader = try CaptureFile.open(path: path)
            while let r = try reader.next() { records += r.packet.bytes.isEmpty ? 0 : 1 }
            passes += 1
        }
        let seconds = Self.seconds(clock.now - start)
        let perPass = records / max(passes, 1)
        #expect(perPass > 1000)
        print("capture read throughput: \(name): \(passes) passes × \(perPass) records in \(String(format: "%.3f", seconds)) s "
              + "= \(Int(Double(records) / seconds)) records/s")
    }

    /// A capture far larger than the read buffer streams with flat memory.
    @Test func largeCaptureStreamsInConstantMemory() throws {
        #if DEBUG
        let targetSize = 16 << 20
        #else
        let targetSize = 100 << 20
        #endif
        // Record bytes to repeat: a real capture's records if present, else synthetic ones.
        var body: [UInt8]
        var recordsPerCopy: Int
        if RealCaptures.available, let name = Self.largestCapture, name.hasSuffix(".btsnoop") {
            body = Array(try RealCaptures.bytes(name).dropFirst(16))
            recordsPerCopy = try readAllRecords(try RealCaptures.bytes(name)).count
        } else {
            body = []
            recordsPerCopy = 1000
            for i in 0..<recordsPerCopy {
                let r = CaptureRecord(timestampMicros: 1_700_000_000_000_000 + Int64(i), direction: .controllerToHost,
                                      packet: HCIPacket(type: .acl, bytes: [0x40, 0x20, 0x1b, 0x00] + [UInt8](repeating: 7, count: 27)))
                try BtsnoopFormat.appendRecord(r, to: &body)
            }
        }
        let copies = max(1, targetSize / body.count)
        let dir = try TemporaryDirectory()
        let path = dir.file("large.btsnoop")
        _ = FileManager.default.createFile(atPath: path, contents: Data(BtsnoopFormat.fileHeader()))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        let block = Data(body)
        for _ in 0..<copies { try handle.write(contentsOf: block) }
        try handle.close()
        body = []

        let before = Self.residentBytes()
        var peak = before
        let clock = ContinuousClock()
        let start = clock.now
        var reader = try CaptureFile.open(path: path)
        var records = 0
        while let r = try reader.next() {
            records += r.packet.bytes.isEmpty ? 0 : 1
            if records & 0xffff == 0 { peak = max(peak, Self.residentBytes()) }
        }
        let seconds = Self.seconds(clock.now - start)
        let size = reader.offset
        let growth = peak - before
        #expect(records == copies * recordsPerCopy)
        #expect(size == 16 + copies * block.count)
        // The whole process's RSS is shared with suites running in parallel, so it is only
        // printed here; DissectorTests.DecodeMemoryTests checks constant memory in a child
        // process of its own (`rtstack decode` on a large and a small capture).
        print("large capture: \(records) records, \(size >> 20) MiB in \(String(format: "%.3f", seconds)) s = "
              + "\(Int(Double(records) / seconds)) records/s, \(Int(Double(size) / seconds) >> 20) MiB/s, "
              + "RSS growth \(growth >> 10) KiB")
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
