import Foundation
import Testing
@testable import RTStackCLI

/// The pairing agent's terminal question: the typed line is the answer, and a question whose
/// task is cancelled (its link went down, the command ended) ends at once and reads nothing
/// more, so the next line typed is left for whoever reads next.
@Suite struct TerminalLineTests {
    static func pipeEnds() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    static func send(_ text: String, to fd: Int32) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    }

    @Test func theLineTypedIsTheAnswer() async throws {
        let ends = try Self.pipeEnds()
        defer { close(ends.read); close(ends.write) }
        let answer = Task { await TerminalLine.read(from: ends.read) }
        Self.send("123456\n", to: ends.write)
        #expect(await answer.value == "123456")
    }

    @Test func aCancelledQuestionEndsAtOnceAndLeavesTheNextLineUnread() async throws {
        let ends = try Self.pipeEnds()
        defer { close(ends.read); close(ends.write) }
        let answer = Task { await TerminalLine.read(from: ends.read) }
        try await Task.sleep(nanoseconds: 50_000_000)   // the reader is waiting on the pipe
        let started = ContinuousClock.now
        answer.cancel()
        #expect(await answer.value == nil)
        // Generous: a loaded CI machine schedules the reader thread late; a question that waited for
        // an answer would never end at all.
        #expect(ContinuousClock.now - started < .seconds(60), "the question waited for an answer after its cancellation")
        Self.send("later\n", to: ends.write)
        try await Task.sleep(nanoseconds: 100_000_000)   // time for a reader that is still there to take it
        var bytes = [UInt8](repeating: 0, count: 16)
        _ = fcntl(ends.read, F_SETFL, O_NONBLOCK)
        let n = read(ends.read, &bytes, bytes.count)
        #expect(n == 6 && String(decoding: bytes.prefix(6), as: UTF8.self) == "later\n", "the cancelled question read the next line")
    }

    @Test func theEndOfInputIsNoAnswer() async throws {
        let ends = try Self.pipeEnds()
        defer { close(ends.read) }
        close(ends.write)
        #expect(await TerminalLine.read(from: ends.read) == nil)
    }
}
