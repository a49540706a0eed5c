import HostCore

/// The logic that uses the host on the loop thread (the run session, the async `Central`
/// bridge, a CLI command). All calls happen on the loop thread, so it needs no locks.
public protocol HostApplication: AnyObject {
    /// Called once after the driver is built, before any packet.
    func attach(_ driver: HostDriver, at now: HostTime)
    func hostEvent(_ event: HostEvent, at now: HostTime)
    var nextDeadline: HostTime? { get }
    func deadlineReached(at now: HostTime)
    /// The transport ended (EOF, error, or stop); the loop ends after this.
    func transportClosed(_ error: TransportError)
    /// First Ctrl-C: return true to stop at once, or false to end cleanly and then call
    /// `driver.stop()`.
    func shutdownRequested(at now: HostTime) -> Bool
    /// Every packet of one read from the transport has been handled: a place to hand on, in
    /// one go, what the read produced (the async API yields its notification batches here).
    func inputProcessed(at now: HostTime)
}

extension HostApplication {
    public func inputProcessed(at now: HostTime) {}
}
