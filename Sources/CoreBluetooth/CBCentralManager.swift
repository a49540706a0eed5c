import Foundation
import HostCore
import Runtime
import Wire

/// Apple's central manager over rtstack's async `Central`. The adapter is opened after `init`
/// returns (`AdapterSettings` says which); the first `centralManagerDidUpdateState` follows on
/// the delegate's queue, so a delegate set right after `init` still hears it. Every delegate
/// call is made on `queue` (nil: the main queue), as on iOS.
open class CBCentralManager: CBManager, @unchecked Sendable {
    // Sendable: the rule of `CBManager`.
    let queue: DispatchQueue
    private weak var storedDelegate: (any CBCentralManagerDelegate)?
    var central: Central?
    var storedScanning = false
    var scan: Task<Void, Never>?
    var peripherals: [DeviceAddress: CBPeripheral] = [:]
    private var monitor: Task<Void, Never>?

    /// No delegate, the main queue: set `delegate` before the first state update arrives.
    public override init() {
        queue = .main
        super.init()
        start(options: nil)
    }

    public convenience init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?) {
        self.init(delegate: delegate, queue: queue, options: nil)
    }

    /// `options` may hold rtstack's keys (`CBCentralManagerOptionRTStackAdapterKey` and the
    /// others) besides Apple's, which have no effect on Linux.
    public init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?, options: [String: Any]? = nil) {
        self.queue = queue ?? .main
        storedDelegate = delegate
        super.init()
        start(options: options)
    }

    /// Opens the adapter after `init` has returned.
    private func start(options: [String: Any]?) {
        var rtstack: [String: String] = [:]
        for (k, v) in options ?? [:] where k.hasPrefix("RTSTACK_") {
            if let s = v as? String { rtstack[k] = s } else if let n = v as? NSNumber { rtstack[k] = n.stringValue }
        }
        let settings = AdapterSettings.resolve(options: rtstack, environment: ProcessInfo.processInfo.environment)
        Task.detached { [weak self] in await self?.powerOn(settings) }
    }

    deinit {
        scan?.cancel()
        monitor?.cancel()
        if let c = central { Task { await c.close() } }
    }

    open var delegate: (any CBCentralManagerDelegate)? {
        get { lock.guarded { storedDelegate } }
        set { lock.guarded { storedDelegate = newValue } }
    }

    open var isScanning: Bool { lock.guarded { storedScanning } }

    /// Runs `body` on the delegate's queue.
    func onQueue(_ body: @escaping @Sendable (CBCentralManager) -> Void) {
        queue.async { body(self) }
    }

    /// The `Central` when powered on; otherwise nil after iOS's API MISUSE line.
    func poweredOnCentral(_ what: String) -> Central? {
        let c: Central? = lock.guarded { storedState == .poweredOn ? central : nil }
        if c == nil { CBLog.misuse("<CBCentralManager> can only accept \(what) while in the powered on state (it is \(state))") }
        return c
    }

    private func powerOn(_ settings: Result<AdapterSettings, SettingsError>) async {
        let s: AdapterSettings
        switch settings {
        case .failure(let e):
            CBLog.warning(e.message)
            return update(.unsupported)
        case .success(let v):
            s = v
        }
        let agent = FixedPairingAgent(passkey: s.passkey) { passkey, peer in
            CBLog.write("[CoreBluetooth] pairing with \(peer): type \(String(format: "%06u", passkey)) on the peripheral")
        }
        do {
            let c = try await Central.open(s.adapter, backend: s.backend, configuration: s.hostConfiguration(), agent: agent,
                                           bondStore: FileBondStore(directory: StateDirectory(path: s.stateDirectory)))
            lock.guarded { central = c }
            update(.poweredOn)
            watch(c)
        } catch {
            let state = ErrorTranslation.state(after: error)
            CBLog.warning("\(s.adapter) cannot be used: \(error)")
            if state == .unauthorized {
                lock.guarded { storedAuthorization = .denied }
                CBLog.warning("rtstack needs CAP_NET_ADMIN and CAP_NET_RAW for \(s.adapter): run as root, or give the program them "
                    + "(sudo setcap cap_net_admin,cap_net_raw+ep PROGRAM), or set RTSTACK_ADAPTER to a serial or TCP controller")
            }
            update(state)
        }
    }

    private func update(_ state: CBManagerState) {
        lock.guarded { storedState = state }
        onQueue { m in m.delegate?.centralManagerDidUpdateState(m) }
    }

    /// `.poweredOff` when the adapter is lost under the app (the transport closed, the
    /// controller failed for good); the links' ends are reported by each peripheral.
    private func watch(_ c: Central) {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                guard let self else { return }
                if let failure = c.failure {
                    CBLog.warning("the adapter was lost: \(failure)")
                    self.lock.guarded { self.storedScanning = false }
                    self.update(.poweredOff)
                    return
                }
            }
        }
        lock.guarded { monitor = task }
    }

    /// The one `CBPeripheral` of `address`.
    func peripheral(for address: DeviceAddress) -> CBPeripheral {
        lock.guarded {
            if let p = peripherals[address] { return p }
            let p = CBPeripheral(address: address, lock: lock, queue: queue)
            peripherals[address] = p
            return p
        }
    }

    // MARK: Retrieving

    /// The peripherals this manager has seen with these identifiers.
    open func retrievePeripherals(withIdentifiers identifiers: [UUID]) -> [CBPeripheral] {
        let all = lock.guarded { Array(peripherals.values) }
        return identifiers.compactMap { id in all.first { $0.identifier == id } }
    }

    /// The peripherals connected through this manager that have (or advertised) one of
    /// `serviceUUIDs`.
    open func retrieveConnectedPeripherals(withServices serviceUUIDs: [CBUUID]) -> [CBPeripheral] {
        let wanted = Set(serviceUUIDs.map(\.value))
        return lock.guarded {
            peripherals.values.filter { p in
                p.storedState == .connected
                    && ((p.storedServices ?? []).contains { wanted.contains($0.uuid.value) } || p.advertisedServices.contains(where: wanted.contains))
            }.sorted { $0.identifier.uuidString < $1.identifier.uuidString }
        }
    }
}
