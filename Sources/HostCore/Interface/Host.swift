import Wire

/// A sans-I/O BLE central, over either backend: `HCIHost` talks HCI to a controller of its own
/// (H4 over a serial line or TCP, the kernel's HCI user channel); `KernelHost` leaves the adapter
/// to the kernel (management socket, one L2CAP socket per link). Everything an application does
/// — scan, connect, run GATT operations, follow events — goes through this protocol, so the run
/// session, the async `Central`, replays and benchmarks work on either.
///
/// Inputs change state; outputs are pulled: after every input the driver hands the backend's
/// packets out (`HCIHost.pollTransmit`, `KernelHost.pollAction`), then the events
/// (`pollEvent`), and asks `nextDeadline`. Nothing is called back, so a caller may call in again
/// while handling an event.
public protocol Host: AnyObject {
    /// The links, shared by both backends (state, plans, GATT clients, backoff).
    var linkTable: LinkTable { get }

    /// Brings the controller (or adapter) up; `.controllerReady` or `.controllerFailed` follows.
    /// Called again after a failure, it starts over.
    func start(at now: HostTime)
    var isReady: Bool { get }
    /// Bring-up failed, or the adapter was lost for good: nothing happens until `start(at:)`.
    var hasFailed: Bool { get }
    /// What bring-up learned; nil until ready.
    var controllerInfo: ControllerInfo? { get }

    /// Starts scanning (or changes the running scan); nil uses the host's default. The wish is
    /// kept — through refusals, connection attempts and resets — until `stopScan`.
    func startScan(_ scan: ScanConfiguration?, at now: HostTime)
    func stopScan(at now: HostTime)
    /// Whether the radio scans now (`.scanning` events report each change).
    var isScanning: Bool { get }

    var nextDeadline: HostTime? { get }
    func advanceTime(to now: HostTime)

    /// Carries out what the link table asked of the connector and queues what its GATT clients
    /// want sent. Called after every request that may have changed a link.
    func serviceLinks(at now: HostTime)

    // The link requests, the same on both backends (implemented below once; requirements so
    // that a test double can stand in for a host).
    @discardableResult
    func connect(to peer: DeviceAddress, plan: LinkPlan, at now: HostTime) -> LinkID
    func disconnect(_ link: LinkID, at now: HostTime)
    @discardableResult
    func perform(_ operation: GATTOperation, on link: LinkID, at now: HostTime) -> OperationID
    func pollEvent() -> HostEvent?

    // Security (Docs/security.md): the user's answer to a `SecurityEvent.prompt`, a level the
    // application asks of a connected link (`rtstack pair`), and the bonds the host knows.
    func answerPairing(_ link: LinkID, _ answer: PairingAnswer, at now: HostTime)
    func secure(_ link: LinkID, _ need: SecurityNeed, at now: HostTime)
    var bonds: [BondRecord] { get }
    /// Forgets the bond filed under `peer` (an unpairing asked while the host runs): the next
    /// link to it pairs anew. False when there was none. Its file is the runtime's to remove.
    @discardableResult
    func removeBond(_ peer: DeviceAddress) -> Bool
}

extension Host {
    /// Asks for a connection to `peer`, taken from connection to `ready` by `plan`. The link
    /// waits in `.queued` for its turn. Asking again for a peer whose link is alive returns that
    /// link; for one whose link is `.disconnected`, the same link starts over with the new plan.
    @discardableResult
    public func connect(to peer: DeviceAddress, plan: LinkPlan, at now: HostTime) -> LinkID {
        let id = linkTable.connect(to: peer, plan: plan, at: now)
        serviceLinks(at: now)
        return id
    }

    /// Ends a link for good: a connected link is closed, a link not yet connected is taken out
    /// of the queue or its attempt cancelled. Either way `.disconnected(link, reason:,
    /// willReconnect: false)` follows (reason 0x44, Operation Cancelled by Host, for a link that
    /// was not connected).
    public func disconnect(_ link: LinkID, at now: HostTime) {
        linkTable.disconnect(link, at: now)
        serviceLinks(at: now)
    }

    /// Runs a GATT operation on a connected link; `.operationCompleted(id, …)` follows.
    @discardableResult
    public func perform(_ operation: GATTOperation, on link: LinkID, at now: HostTime) -> OperationID {
        let op = linkTable.perform(operation, on: link, at: now)
        serviceLinks(at: now)
        return op
    }

    /// The next event for the application, in order; nil when there is none.
    public func pollEvent() -> HostEvent? { linkTable.pollEvent() }

    /// Whether `link` is encrypted now (Encryption Change on the HCI backend, the socket's
    /// level on the kernel's): a signed write is sent as Write Without Response then.
    public func isEncrypted(_ link: LinkID) -> Bool {
        linkTable.record(link)?.phase.connection?.client.linkEncrypted == true
    }

    public func state(of link: LinkID) -> LinkState? { linkTable.state(of: link) }

    public func startScan(at now: HostTime) { startScan(nil, at: now) }

    @discardableResult
    public func connect(to peer: DeviceAddress, at now: HostTime) -> LinkID {
        connect(to: peer, plan: LinkPlan(), at: now)
    }
}
