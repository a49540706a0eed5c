import Glibc

/// What a signal handler does to wake its event loop: one increment of the eventfd (or one
/// write to the pipe) behind `fd`, nothing when no watcher is installed. Async-signal-safe.
func wakeFromSignalHandler(_ fd: Int32) {
    guard fd >= 0 else { return }
    var one: UInt64 = 1
    _ = write(fd, &one, 8)
}

/// Installs `handler` for `signo` (SA_RESTART, nothing blocked while it runs) and returns the
/// disposition it replaced, for the watcher's `uninstall` to put back.
func installSignalHandler(_ signo: Int32, named name: String,
                          _ handler: @convention(c) (Int32) -> Void) throws(SignalWatcherError) -> sigaction {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    var old = sigaction()
    guard sigaction(signo, &action, &old) == 0 else { throw .systemCall(operation: "sigaction(\(name))", errno: currentErrno) }
    return old
}
