import HostCore

/// The logic that uses a `KernelHost` on the loop's thread (the run session, `scan`): the
/// kernel-backend twin of `HostApplication`.
public protocol KernelApplication: AnyObject {
    /// Called once after the driver is built, before any event.
    func attach(_ driver: KernelDriver, at now: HostTime)
    func hostEvent(_ event: HostEvent, at now: HostTime)
    var nextDeadline: HostTime? { get }
    func deadlineReached(at now: HostTime)
    /// The management socket failed; the loop ends after this. `message` names the cause.
    func backendFailed(_ message: String)
    /// First Ctrl-C: true stops at once; false ends cleanly, then calls `driver.stop()`.
    func shutdownRequested(at now: HostTime) -> Bool
}
