import HostCore
import Wire

/// The I/O of one backend, as the `AdapterDriver` runs it on the loop thread: the descriptors it
/// owns, the host it feeds, and how the host's outputs reach the adapter. `HCITransportIO` is the
/// HCI backend (one transport: TCP, a serial line, the HCI user channel, a replay);
/// `KernelSocketsIO` the kernel backend (the management socket and one L2CAP socket per link).
public protocol AdapterIO: AnyObject {
    /// The adapter, for messages ("hci0", "tcp:127.0.0.1:9000").
    var name: String { get }
    /// The host this I/O feeds.
    var host: any Host { get }
    /// The packet tap: every packet, both directions (`--trace`, `--capture`).
    var tap: PacketTap { get }

    func collectDescriptors(into list: inout [WatchedDescriptor])
    /// Reads (or writes) what the descriptor is ready for and feeds the host, calling `settle`
    /// after every input so the host's outputs and events are handed on before the next one
    /// (values of notifications are slices of the input buffer).
    func descriptorReady(_ token: Int, events: Int16, at now: UInt64, settle: () -> Void)
    /// Hands what the host has queued to the adapter. Answers this causes (a socket that could
    /// not be opened) go straight back to the host. Returns whether anything was done.
    func transmit(at now: UInt64) -> Bool
    /// Set when what this I/O serves is lost (the transport ended, the management socket
    /// failed): the loop ends with it.
    var failure: TransportError? { get }
    /// Warnings of the I/O itself (a write refused), handed to the application as host events.
    func takeWarnings() -> [HostWarning]
    /// How the end reads for the user: a stream cut in the middle of a packet says so.
    func describeEnd(_ error: TransportError) -> TransportError
    /// The loop ends: close every descriptor and leave the adapter as found.
    func close()
}
