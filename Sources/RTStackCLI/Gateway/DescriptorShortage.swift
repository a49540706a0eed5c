#if canImport(Glibc)
import Glibc
#endif
import HostCore

/// A listener that ran out of file descriptors. accept(2) failing with EMFILE or ENFILE leaves
/// the connection in the kernel's backlog, so the listener stays readable: polled again at once,
/// the gateway would spin on the failure with a core at 100 % and starve its links. Instead the
/// listener rests for `pause` (the client waits in the backlog, its connect succeeded at the TCP
/// level), then tries again. The shortage is said once, with its remedy, when it starts, and once
/// more when a connection is accepted again.
struct DescriptorShortage {
    /// Long enough that a shortage costs nothing; short enough that a client waiting in the
    /// backlog is taken within a second of a descriptor coming free.
    static let pause = HostDuration.seconds(1)

    /// Until when the listener is not polled; nil while it is.
    private(set) var pausedUntil: HostTime?
    /// When the shortage began, while it lasts.
    private var since: HostTime?
    private var failures = 0

    var isPaused: Bool { pausedUntil != nil }

    /// accept(2) failed with `code`: true when it was a shortage (the listener now rests),
    /// with the line to log the first time of each shortage.
    mutating func acceptFailed(_ code: Int32, listener: String, at now: HostTime) -> (shortage: Bool, line: String?) {
        guard code == EMFILE || code == ENFILE else { return (false, nil) }
        pausedUntil = now + Self.pause
        failures += 1
        guard since == nil else { return (true, nil) }
        since = now
        return (true, Self.advice(code, listener: listener))
    }

    /// A connection was accepted: the line saying the shortage is over, if there was one.
    mutating func accepted(at now: HostTime) -> String? {
        guard let start = since else { return nil }
        defer { since = nil; failures = 0 }
        let seconds = (now - start) / 1_000_000_000
        return "accepting connections again: file descriptors were short for \(seconds) s (\(failures) tries)"
    }

    /// The listener is polled again once its pause is over.
    mutating func advanceTime(to now: HostTime) {
        if let until = pausedUntil, until <= now { pausedUntil = nil }
    }

    /// What ran out, and what to do about it.
    static func advice(_ code: Int32, listener: String) -> String {
        let pauseSeconds = pause / 1_000_000_000
        if code == ENFILE {
            return "\(listener) cannot accept a connection: the system's file table is full (ENFILE); waiting clients are taken once descriptors come free, retrying every \(pauseSeconds) s: raise fs.file-max (sysctl) or stop what holds so many files"
        }
        var limit = rlimit()
        let soft = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max ? ": its limit is \(limit.rlim_cur)" : ""
        return "\(listener) cannot accept a connection: rtstack has all its file descriptors open (EMFILE\(soft)); waiting clients are taken once one comes free, retrying every \(pauseSeconds) s: raise the limit (`ulimit -n`, LimitNOFILE= in the systemd unit) or connect fewer clients"
    }
}
