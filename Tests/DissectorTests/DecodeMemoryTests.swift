import Testing
import TestSupport
import Foundation
import Capture
import Wire

/// `rtstack decode` streams: decoding a 24 MiB capture takes no more memory than decoding a
/// small one. Measured as the peak RSS of a child process (its own, so suites running in
/// parallel in this process cannot disturb it).
@Suite(.ownThread) struct DecodeMemoryTests {
    static var rtstack: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rtstack").path
    }

    /// Peak resident set of `rtstack args`, in KiB. A small Python parent runs it and reports
    /// RUSAGE_CHILDREN: spawning it from this (large) test process directly would count this
    /// process's pages, which the child shares until its exec.
    func peakKiB(_ args: [String]) throws -> Int {
        try #require(FileManager.default.isExecutableFile(atPath: Self.rtstack),
                     "no rtstack binary at \(Self.rtstack): build the product first (scripts/test does)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", """
            import resource, subprocess, sys
            r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
            print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """, Self.rtstack] + args
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let parts = out.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        try #require(parts.count == 2, "unexpected output: \(out)")
        #expect(parts[0] == "0", "rtstack \(args) exited \(parts[0])")
        return Int(parts[1]) ?? -1
    }

    @Test func largeCaptureDecodesInConstantMemory() throws {
        var small = BtsnoopFormat.fileHeader()
        for i in 0..<2000 {
            // A notification on handle 0x0040 (Vol 3, Part F, §3.4.7.1), 20 value bytes.
            let acl: [UInt8] = [0x40, 0x20, 0x1B, 0x00, 0x17, 0x00, 0x04, 0x00, 0x1B, 0x12, 0x00] + [UInt8](repeating: UInt8(i & 0xFF), count: 20)
            try BtsnoopFormat.appendRecord(CaptureRecord(timestampMicros: 1_700_000_000_000_000 + Int64(i) * 1000,
                                                         direction: .controllerToHost, packet: HCIPacket(type: .acl, bytes: acl)),
                                           to: &small)
        }
        let body = small.dropFirst(16)
        var large = small
        while large.count < 24 << 20 { large += body }
        let dir = FileManager.default.temporaryDirectory
        let smallPath = dir.appendingPathComponent("rtstack-small-\(getpid()).btsnoop").path
        let largePath = dir.appendingPathComponent("rtstack-large-\(getpid()).btsnoop").path
        try Data(small).write(to: URL(fileURLWithPath: smallPath))
        try Data(large).write(to: URL(fileURLWithPath: largePath))
        defer { unlink(smallPath); unlink(largePath) }
        let smallPeak = try peakKiB(["decode", "--summary-only", smallPath])
        let largePeak = try peakKiB(["decode", "--summary-only", largePath])
        print("decode peak RSS: \(smallPeak) KiB for \(small.count >> 10) KiB, \(largePeak) KiB for \(large.count >> 20) MiB")
        // Loading the file would add 24 MiB; streaming adds at most buffers and statistics.
        #expect(largePeak - smallPeak < 8 * 1024, "peak RSS grew by \(largePeak - smallPeak) KiB for a 24 MiB capture")
    }
}
