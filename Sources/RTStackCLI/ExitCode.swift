/// Exit statuses, documented in README so scripts can tell failures apart.
public enum ExitCode: Int32, Sendable {
    /// Done; for `decode`, every file was read (decode errors inside packets are counted, not fatal).
    case success = 0
    /// The job ran and failed: a connection, a GATT procedure or a peer error.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// The adapter or transport could not be opened or was lost.
    case adapter = 3
    /// An input file could not be read at all.
    case input = 4
    /// Interrupted before it could finish cleanly (second Ctrl-C).
    case interrupted = 130
}
