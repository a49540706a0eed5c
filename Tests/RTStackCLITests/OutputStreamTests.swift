import Foundation
import Testing
@testable import RTStackCLI

/// One stream written from many threads at once (the subscribe command's task per
/// characteristic, the pairing agent, the loop thread's notices) loses no line and tears none:
/// each call goes into the buffer whole. Run under ThreadSanitizer by scripts/test, where an
/// unguarded buffer is also reported as a race.
@Suite struct OutputStreamTests {
    @Test func linesWrittenFromManyTasksAtOnceArriveWholeAndAllOfThem() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-out-\(UUID().uuidString)").path
        defer { unlink(path) }
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        try #require(fd >= 0)
        // A small buffer, so that writers flush while others append.
        let out = OutputStream(fd: fd, bufferSize: 256)
        let writers = 8, lines = 500
        await withTaskGroup(of: Void.self) { group in
            for w in 0..<writers {
                group.addTask {
                    for i in 0..<lines {
                        switch i % 3 {
                        case 0: out.line("writer \(w) line \(i) " + String(repeating: "x", count: i % 40))
                        case 1: out.append(text: { $0.append("writer \(w) line \(i) " + String(repeating: "x", count: i % 40) + "\n") })
                        default:
                            out.write("writer \(w) line \(i) " + String(repeating: "x", count: i % 40) + "\n")
                            out.flush()
                        }
                    }
                }
            }
        }
        out.flush()
        close(fd)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let got = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(got.count == writers * lines)
        var seen = Set<String>()
        for line in got {
            let words = line.split(separator: " ")
            guard words.count >= 4, let i = Int(words[3]) else {
                Issue.record("a torn line: \(line)")
                continue
            }
            #expect(line == "writer \(words[1]) line \(i) " + String(repeating: "x", count: i % 40), "a torn line")
            seen.insert("\(words[1]).\(i)")
        }
        #expect(seen.count == writers * lines, "lines lost or written twice")
    }
}
