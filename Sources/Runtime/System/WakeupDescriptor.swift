import Glibc

/// A descriptor that becomes readable when some other thread (or a signal handler) wants the
/// event loop's attention: an `eventfd` where the C library has one, else a non-blocking pipe.
///
/// `wake()` is a single `write(2)` and is async-signal-safe, so the signal handler uses it too.
/// Waking is idempotent until `drain()`: many wakes before the loop runs cost one poll wake-up.
public struct WakeupDescriptor: Sendable {
    /// The end `poll()` watches.
    public let readFD: Int32
    /// The end `wake()` writes; the same descriptor as `readFD` for an eventfd.
    public let writeFD: Int32

    /// Creates the descriptor pair; throws with the errno of the failed call.
    public static func make() throws(TransportError) -> WakeupDescriptor {
        if let eventfd = LinuxOnlyCalls.eventfd {
            let fd = eventfd(0, LinuxOnlyCalls.eventFDFlags)
            if fd >= 0 { return WakeupDescriptor(readFD: fd, writeFD: fd) }
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .systemCall(operation: "pipe", errno: currentErrno) }
        for fd in ends {
            if let code = FileDescriptorFlags.makeNonBlockingCloseOnExec(fd) {
                FileDescriptorFlags.closeIgnoringErrors(ends[0])
                FileDescriptorFlags.closeIgnoringErrors(ends[1])
                throw .systemCall(operation: "fcntl(O_NONBLOCK)", errno: code)
            }
        }
        return WakeupDescriptor(readFD: ends[0], writeFD: ends[1])
    }

    /// Makes `readFD` readable. Eight bytes because an eventfd takes exactly a 64-bit counter
    /// increment; on a pipe the reader just discards them. EAGAIN (a full pipe, a saturated
    /// counter) means a wake is already pending, which is all we need.
    @inline(__always)
    public func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(writeFD, &one, 8)
    }

    /// Consumes every pending wake so the next `poll()` blocks again.
    public func drain() {
        var sink: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        while true {
            let n = withUnsafeMutableBytes(of: &sink) { Glibc.read(readFD, $0.baseAddress, $0.count) }
            if n > 0 { continue }
            if n < 0 && currentErrno == EINTR { continue }
            return
        }
    }

    /// Closes both ends (once if they are the same descriptor).
    public func close() {
        FileDescriptorFlags.closeIgnoringErrors(readFD)
        if writeFD != readFD { FileDescriptorFlags.closeIgnoringErrors(writeFD) }
    }
}
