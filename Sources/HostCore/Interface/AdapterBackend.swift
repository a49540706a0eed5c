/// Who keeps an `hciN` adapter: rtstack alone, through the HCI user channel (its own HCI,
/// L2CAP and ATT: `HCIHost`), or the kernel, shared with bluetoothd (the management channel and
/// one L2CAP socket per link: `KernelHost`). Serial, TCP and replay adapters have no kernel host
/// stack and always use the HCI backend.
/// In HostCore, beside the two connectors it chooses between, so that the gateway's configuration
/// and status name it without the Runtime.
public enum AdapterBackend: String, Sendable, Hashable, CaseIterable {
    case userChannel = "user-channel"
    case kernel
}
