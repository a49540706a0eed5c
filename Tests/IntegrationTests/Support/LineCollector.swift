import Foundation
import Synchronization

/// Reads one pipe to its end on a thread of its own and keeps every line, so the child never
/// blocks on a full pipe and the test can look at what came so far at any time.
final class LineCollector: Sendable {
    private struct State {
        var lines: [String] = []
        var parsed: [JSONValue?] = []
        var partial: [UInt8] = []
        var finished = false
    }

    private let state = Mutex(State())
    private let handle: FileHandle

    init(_ handle: FileHandle) {
        self.handle = handle
        let fd = handle.fileDescriptor
        let thread = Thread { [self] in self.readLoop(fd) }
        thread.name = "line-collector"
        thread.start()
    }

    private func readLoop(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            state.withLock { s in
                for b in buffer[0..<n] {
                    if b == UInt8(ascii: "\n") {
                        s.lines.append(String(decoding: s.partial, as: UTF8.self))
                        s.partial.removeAll(keepingCapacity: true)
                    } else {
                        s.partial.append(b)
                    }
                }
            }
        }
        state.withLock { s in
            if !s.partial.isEmpty { s.lines.append(String(decoding: s.partial, as: UTF8.self)) }
            s.partial = []
            s.finished = true
        }
    }

    var lines: [String] { state.withLock { $0.lines } }
    var text: String { lines.joined(separator: "\n") }
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Every line parsed as JSON (lines that are not JSON are left out); parsing is done once
    /// per line.
    var json: [JSONValue] {
        let (lines, done) = state.withLock { s in (s.lines, s.parsed.count) }
        var fresh: [JSONValue?] = []
        for l in lines[done...] { fresh.append(JSONValue.parse(l)) }
        return state.withLock { s in
            if s.parsed.count == done { s.parsed.append(contentsOf: fresh) }
            return s.parsed.compactMap { $0 }
        }
    }

    /// Waits until `ready` holds for the parsed lines (true) or the time is up or the pipe
    /// ended without it (false).
    func wait(timeout seconds: Double, until ready: ([JSONValue]) -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while true {
            let finished = isFinished
            if ready(json) { return true }
            if finished || Date() > end { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
