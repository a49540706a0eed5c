#if canImport(Glibc)
import Glibc
#endif
import Runtime
import Synchronization

/// One line the user types, for the pairing agent's questions. The read blocks until the user
/// answers, so it runs on a thread of its own, off the cooperative pool; it also watches a
/// wake-up descriptor, so that a cancelled question (its link went down, the command ended)
/// stops reading at once instead of taking the next line typed for something else.
enum TerminalLine {
    /// The next line of `fd` (at most 64 bytes, without its newline); nil at end of input, when
    /// no thread could be made, or when the calling task is cancelled.
    static func read(from fd: Int32 = 0) async -> String? {
        guard let question = try? Question() else { return nil }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<String?, Never>) in
                question.waiting(c)
                if Task.isCancelled { return question.answer(nil) }
                let started = LoopThread.detach(name: "rtstack-prompt") {
                    question.answer(Self.blockingLine(fd, cancel: question.wakeup.readFD))
                }
                if !started { question.answer(nil) }
            }
        } onCancel: {
            question.answer(nil)
            question.wakeup.wake()
        }
    }

    /// A question's one answer, from whichever comes first: the reader thread or cancellation.
    /// The wake-up descriptor closes when both have let go of it, never under the other's feet.
    private final class Question: Sendable {
        let wakeup: WakeupDescriptor
        private let continuation = Mutex<CheckedContinuation<String?, Never>?>(nil)

        init() throws {
            wakeup = try WakeupDescriptor.make()
        }

        func waiting(_ c: CheckedContinuation<String?, Never>) {
            continuation.withLock { $0 = c }
        }

        /// Resumes the waiting task the first time; later answers are dropped.
        func answer(_ line: String?) {
            continuation.withLock { $0.take() }?.resume(returning: line)
        }

        deinit { wakeup.close() }
    }

    /// Reads bytes until a newline, the end of input, or `cancel` becoming readable.
    private static func blockingLine(_ fd: Int32, cancel: Int32) -> String? {
        var bytes: [UInt8] = []
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: cancel, events: Int16(POLLIN), revents: 0)]
        while bytes.count <= 64 {
            fds[0].revents = 0
            fds[1].revents = 0
            let n = poll(&fds, 2, -1)
            if n < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[1].revents != 0 { return nil }
            var c: UInt8 = 0
            let got = Glibc.read(fd, &c, 1)
            if got < 0 && errno == EINTR { continue }
            guard got == 1 else { break }
            if c == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(c)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
