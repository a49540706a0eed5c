import Wire

/// Where the core's outputs go. Called synchronously from inside `Host` inputs, on the one
/// thread that drives the core; implementations must not call back into the host.
public protocol HostSink: AnyObject {
    /// A packet for the controller (commands and ACL data, already fragmented and credit-checked).
    func send(_ packet: HCIPacket)
    /// Something the application should know.
    func deliver(_ event: HostEvent)
}
