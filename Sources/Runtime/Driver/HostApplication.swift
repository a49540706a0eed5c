import HostCore

/// The logic that uses the host on the loop thread: the run session, the async `Central` bridge,
/// the gateway. Either backend; all calls happen on the loop thread, so it needs no locks.
public protocol HostApplication: AnyObject {
    /// Called once after the driver is built, before the host starts.
    func attach(_ driver: AdapterDriver, at now: HostTime)
    /// The host's events, in order. The application may call into the host from here.
    func hostEvent(_ event: HostEvent, at now: HostTime)
    var nextDeadline: HostTime? { get }
    func deadlineReached(at now: HostTime)
    /// The adapter is gone for this loop: the transport ended or failed, the management socket
    /// failed, or the loop was stopped (`.closed`). The loop ends after this.
    func adapterClosed(_ error: TransportError)
    /// First Ctrl-C: return true to stop at once, or false to end cleanly and then call
    /// `driver.stop()`.
    func shutdownRequested(at now: HostTime) -> Bool
    /// Every packet of one read has been handled: a place to hand on, in one go, what the read
    /// produced (the async API yields its notification batches here).
    func inputProcessed(at now: HostTime)
}

extension HostApplication {
    public func inputProcessed(at now: HostTime) {}
}
