import Wire

/// Everything the host needs to know before it talks to a controller. A value, so that a test,
/// a replay and the CLI can build the very same host.
public struct HostConfiguration: Sendable {
    /// The address the host puts in its LE commands (Own_Address_Type).
    public enum OwnAddress: Sendable, Hashable {
        /// A random static address (Core Spec Vol 6, Part B, §1.3.2.1), set with LE Set Random
        /// Address during bring-up. The Runtime generates it once and keeps it in its state
        /// directory, so that peers see the same central every time. Some controllers (Bumble's
        /// virtual one among them) drop the ACL data of a central that uses its public address.
        case randomStatic(BDAddress)
        /// The controller's public address (Read BD_ADDR).
        case publicAddress
        /// A resolvable private address (Vol 6, Part B, §1.3.2.2) made from the local IRK
        /// (`security.pairing.localIdentity`, with `security.crypto`): a new one at bring-up and
        /// every `rotation` nanoseconds (`privateAddressTimeout` is the usual value), so that a
        /// bystander cannot follow rtstack from address to address while a bonded peer, which
        /// holds the IRK, still recognises it (HCIHost+OwnAddress).
        case resolvablePrivate(rotation: UInt64)

        /// T_GAP(private_addr_int), the recommended lifetime of a private address: 15 minutes
        /// (Core Spec v5.4 Vol 3, Part C, Appendix A).
        public static let privateAddressTimeout: UInt64 = HostDuration.seconds(15 * 60)
    }

    public var ownAddress: OwnAddress

    /// Parameters for LE Create Connection and for what the host considers sane.
    public var connectionParameters = ConnectionParameters()

    /// How long a command may wait for its Command Complete / Command Status.
    public var commandTimeout: UInt64 = HostDuration.seconds(2)
    /// The same for HCI Reset: controllers that reload firmware or re-enumerate take longer.
    public var resetTimeout: UInt64 = HostDuration.seconds(5)
    /// After LE Create Connection Cancel, how long to wait for the LE Connection Complete that
    /// ends the attempt before giving up on it (a controller that never sends it must not keep
    /// the initiator busy forever).
    public var createConnectionCancelTimeout: UInt64 = HostDuration.seconds(2)

    /// Used by `startScan(nil, at:)`; also decides, for a connection made before any scan,
    /// whether the extended commands are used (`preferExtended`).
    public var scan = ScanConfiguration()

    /// LE_Scan_Interval / LE_Scan_Window of LE Create Connection (units of 0.625 ms).
    public var initiatorScanInterval: UInt16 = 0x0060
    public var initiatorScanWindow: UInt16 = 0x0060

    /// Replaces the controller's ACL buffer size and count (tests, or a controller that lies).
    public var aclLimits: ACLLimits?

    /// Largest L2CAP payload accepted from a peer; bigger frames are dropped with a warning
    /// instead of being buffered. 517 is the largest ATT_MTU (Vol 3, Part F, §3.2.8).
    public var maximumInboundL2CAPPayload: Int = 1024

    /// Pairing, encryption, bonds (Docs/security.md).
    public var security = SecuritySettings()

    public init(ownAddress: OwnAddress) {
        self.ownAddress = ownAddress
    }
}

/// Connection parameters the host asks for (Core Spec Vol 4, Part E, §7.8.12).
public struct ConnectionParameters: Sendable, Hashable {
    /// Units of 1.25 ms: 24–40 is 30–50 ms, a usual compromise for sensors.
    public var intervalMin: UInt16 = 24
    public var intervalMax: UInt16 = 40
    public var latency: UInt16 = 0
    /// Units of 10 ms: 4 s.
    public var supervisionTimeout: UInt16 = 400
    /// Units of 0.625 ms.
    public var minCELength: UInt16 = 0
    public var maxCELength: UInt16 = 0

    public init() {}
}

/// ACL buffer size and count, as LE Read Buffer Size or Read Buffer Size report them.
public struct ACLLimits: Sendable, Hashable {
    /// Largest data part of one ACL packet.
    public var dataLength: Int
    /// How many ACL packets the controller can hold (the host's credits).
    public var packetCount: Int

    public init(dataLength: Int, packetCount: Int) {
        self.dataLength = dataLength
        self.packetCount = packetCount
    }
}
