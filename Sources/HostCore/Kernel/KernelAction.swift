import Wire

/// What `KernelHost` asks the runtime to do, pulled with `KernelHost.pollAction`: talk to the
/// kernel's management channel and open, write and close one L2CAP socket per link.
public enum KernelAction: Sendable {
    /// One command for the management channel (HCI_CHANNEL_CONTROL).
    case sendManagement(ManagementCommand)
    /// Open a kernel L2CAP socket on the ATT fixed channel (CID 0x0004) to `peer` from the
    /// adapter `address`; answer with `KernelHost.channelConnected` or `channelFailed`.
    case openChannel(LinkID, peer: DeviceAddress, adapter: BDAddress, security: KernelSecurityLevel?)
    /// Close the link's socket (no answer expected: the host has already taken the link down).
    case closeChannel(LinkID)
    /// One whole ATT PDU on the link's socket.
    case sendATT(LinkID, [UInt8])
    /// Raise the connected socket's BT_SECURITY (the kernel pairs or encrypts); answer with
    /// `KernelHost.securityRaised` once the socket is writable again, with the level it has.
    case raiseSecurity(LinkID, KernelSecurityLevel)
}

/// BT_SECURITY levels of the kernel's Bluetooth sockets (include/net/bluetooth/bluetooth.h):
/// the kernel pairs or encrypts before the socket counts as connected.
public enum KernelSecurityLevel: UInt8, Sendable, Hashable, CaseIterable {
    /// No encryption (the default).
    case low = 1
    /// Encrypted, unauthenticated pairing (Just Works) allowed.
    case medium = 2
    /// Encrypted with an authenticated (MITM-protected) key.
    case high = 3
    /// LE Secure Connections, 128-bit key.
    case fips = 4

    public init?(name: String) {
        switch name {
        case "low": self = .low
        case "medium": self = .medium
        case "high": self = .high
        case "fips": self = .fips
        default: return nil
        }
    }
}

/// What the kernel says about a newly connected ATT socket.
public struct KernelChannelInfo: Sendable, Hashable {
    /// BT_RCVMTU / BT_SNDMTU: the L2CAP MTUs of the fixed channel; the ATT MTU stays within them.
    public var receiveMTU: UInt16
    public var sendMTU: UInt16
    /// The connection handle (L2CAP_CONNINFO), for display; nil when the kernel did not say.
    public var handle: UInt16?
    /// BT_SECURITY of the connected socket: the level the kernel reached before connecting it.
    public var security: KernelSecurityLevel?

    public init(receiveMTU: UInt16, sendMTU: UInt16, handle: UInt16? = nil, security: KernelSecurityLevel? = nil) {
        self.receiveMTU = receiveMTU
        self.sendMTU = sendMTU
        self.handle = handle
        self.security = security
    }
}

/// How `KernelHost` is set up.
public struct KernelHostConfiguration: Sendable {
    /// The adapter: `hciN` is index N.
    public var index: UInt16
    /// BT_SECURITY for every link; nil leaves the kernel's default (low).
    public var security: KernelSecurityLevel?
    /// How long a management command may go unanswered before bring-up is declared failed.
    public var commandTimeout: UInt64 = HostDuration.seconds(5)
    /// How long the host waits for an adapter that was powered off or removed to come back
    /// before it gives up (`.controllerFailed`, `hasFailed`): long enough for a power cycle or a
    /// USB re-enumeration, short enough that a session on a dead adapter ends.
    public var adapterReturnTimeout: UInt64 = HostDuration.seconds(30)
    /// While the adapter is away and this host had powered it on, Set Powered is tried again
    /// this often (it fails while rfkill blocks the adapter, and takes once unblocked).
    public var powerRetryInterval: UInt64 = HostDuration.seconds(2)
    /// Wait before asking again after Start Discovery was refused (Busy while the kernel connects).
    public var discoveryRetryDelay: UInt64 = HostDuration.milliseconds(500)
    /// A running discovery is stopped and started again after this long (the kernel's own LE
    /// discovery lasts 10.24 s). Each start resets the controller's duplicate filter, so devices
    /// are reported again with a fresh RSSI, and a device whose first report the kernel dropped
    /// is found in the next cycle: the kernel ignores reports that arrive before its discovery
    /// state reaches "finding", and with duplicate filtering on the controller does not repeat them.
    public var discoveryCycle: UInt64 = HostDuration.seconds(4)
    /// A discovery start that has reported no device after this long is cycled then. The
    /// kernel sets its discovery state to "finding" only after LE Set Scan Enable completes and
    /// drops the reports processed before that; a controller that reports every advertiser at
    /// once on Scan Enable (btvirt does, within a millisecond) can lose the whole burst, and with
    /// duplicate filtering nothing is repeated: the VM test saw most first starts after power-on
    /// and a third of later ones lose it, so a session waited 4 s per loss (issue 17 §5).
    public var discoveryQuietRestart: UInt64 = HostDuration.seconds(1)
    /// How many quiet starts in a row are cycled early before the full cycle applies again
    /// (where nothing advertises, discovery is not cycled every second for good).
    public var discoveryQuietRestartLimit = 10
    /// The IO capability the kernel pairs with (Set IO Capability at bring-up; the kernel
    /// asks rtstack, its agent, for passkeys and comparisons); nil leaves the kernel's.
    public var ioCapability: SMPIOCapability?
    /// Make the adapter bondable (Set Bondable) so the kernel keeps the keys of its pairings,
    /// as bluetoothd does; switched back at the end when rtstack switched it on.
    public var bondable = false
    /// Raise security and send an ATT request again once when the peer refuses it for lack of
    /// security (BT_SECURITY raised on the link's socket).
    public var automaticSecurity = true
    /// How long raising a socket's security (the kernel's pairing) may take.
    public var securityTimeout: UInt64 = HostDuration.seconds(40)

    public init(index: UInt16, security: KernelSecurityLevel? = nil) {
        self.index = index
        self.security = security
    }
}
