import Glibc

/// Small helpers over `fcntl` used by every transport and wake-up descriptor.
enum FileDescriptorFlags {
    /// Sets `O_NONBLOCK` and `FD_CLOEXEC`: the loop must never block in read/write, and child
    /// processes (a spawned tshark, a shell) must not inherit a controller connection.
    static func makeNonBlockingCloseOnExec(_ fd: Int32) -> Int32? {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) >= 0 else { return currentErrno }
        let fdFlags = fcntl(fd, F_GETFD)
        guard fdFlags >= 0, fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) >= 0 else { return currentErrno }
        return nil
    }

    /// `close(2)` that ignores EINTR: on Linux the descriptor is released even then, and
    /// retrying could close a descriptor another thread just received.
    static func closeIgnoringErrors(_ fd: Int32) {
        if fd >= 0 { _ = Glibc.close(fd) }
    }
}
