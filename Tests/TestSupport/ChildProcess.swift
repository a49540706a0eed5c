import Foundation
import MQTT

/// A child process whose output the test reads when it wants to: stdout and stderr go to one
/// non-blocking pipe that `lines` drains, so no thread is needed while a test drives its poll
/// loops. Always reaped: `terminate` and `deinit` kill it if it still runs.
public final class ChildProcess {
    public let process = Process()
    private let pipe = Pipe()
    private let input = Pipe()
    private var partial: [UInt8] = []
    public private(set) var allLines: [String] = []

    public init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = input
        try process.run()
        let fd = pipe.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { terminate(signal: SIGKILL) }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// Every line written so far.
    public var lines: [String] {
        let fd = pipe.fileHandleForReading.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            for b in buffer[0..<n] {
                if b == 0x0A {
                    allLines.append(String(decoding: partial, as: UTF8.self))
                    partial.removeAll()
                } else {
                    partial.append(b)
                }
            }
        }
        return allLines
    }

    public var text: String { lines.joined(separator: "\n") }

    /// Waits (polling every 20 ms) until a line equals or contains `text`; whether it came.
    public func waitForLine(containing text: String, timeout: Double, while drive: () -> Void = {}) -> Bool {
        let end = MQTTClock.now() + MQTTClock.nanoseconds(timeout)
        while MQTTClock.now() < end {
            if lines.contains(where: { $0.contains(text) }) { return true }
            drive()
            usleep(20_000)
        }
        return lines.contains(where: { $0.contains(text) })
    }

    public func closeInput() { try? input.fileHandleForWriting.close() }

    /// Sends `signal` and reaps the process.
    public func terminate(signal: Int32 = SIGTERM) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }
}
