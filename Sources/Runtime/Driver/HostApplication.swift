import HostCore

/// The logic that uses the host on the loop thread of an `AdapterDriver`: the run session, the
/// async `Central` bridge. Either backend; all calls happen on the loop thread, so it needs no
/// locks. Its events come as a `HostEventSink`'s.
public protocol HostApplication: HostEventSink {
    /// Called once after the driver is built, before the host starts.
    func attach(_ driver: AdapterDriver, at now: HostTime)
    var nextDeadline: HostTime? { get }
    func deadlineReached(at now: HostTime)
    /// The adapter is gone for this loop: the transport ended or failed, the management socket
    /// failed, or the loop was stopped (`.closed`). The loop ends after this.
    func adapterClosed(_ error: TransportError)
    /// First Ctrl-C: return true to stop at once, or false to end cleanly and then call
    /// `driver.stop()`.
    func shutdownRequested(at now: HostTime) -> Bool
}
