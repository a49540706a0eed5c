import Foundation
import HostCore
import Runtime
import Wire

/// A peripheral, one object per device for the life of its manager. While connected it holds
/// the async `Peripheral` of its link; every request goes through the connection's
/// `RequestQueue` and every answer reaches the delegate on the manager's queue.
public class CBPeripheral: CBPeer, @unchecked Sendable {
    // Sendable: the rule of `CBManager` (every `var` only inside `lock.guarded`).
    let address: DeviceAddress
    let lock: NSRecursiveLock
    let queue: DispatchQueue
    private weak var storedDelegate: (any CBPeripheralDelegate)?
    var storedName: String?
    var storedState: CBPeripheralState = .disconnected
    var storedServices: [CBService]?
    /// The services it advertised last (for `retrieveConnectedPeripherals(withServices:)`).
    var advertisedServices: [BluetoothUUID] = []
    var connection: PeripheralConnection?
    /// Counts connections and their ends, so an answer or an end that belongs to an earlier
    /// connection is dropped.
    var generation = 0

    init(address: DeviceAddress, lock: NSRecursiveLock, queue: DispatchQueue) {
        self.address = address
        self.lock = lock
        self.queue = queue
        super.init(identifier: PeripheralIdentifier.uuid(for: address))
    }

    public var delegate: (any CBPeripheralDelegate)? {
        get { lock.guarded { storedDelegate } }
        set { lock.guarded { storedDelegate = newValue } }
    }

    public var name: String? { lock.guarded { storedName } }
    public var state: CBPeripheralState { lock.guarded { storedState } }
    public var services: [CBService]? { lock.guarded { storedServices } }

    /// False while more Write Without Response commands are queued than the link takes at
    /// once; `peripheralIsReady(toSendWriteWithoutResponse:)` follows when it is true again.
    public var canSendWriteWithoutResponse: Bool { lock.guarded { connection?.canSendWriteWithoutResponse ?? false } }

    /// ATT_MTU − 3 without response; 512, the longest attribute value (Core Spec v5.4 Vol 3,
    /// Part F, §3.2.9), with response (a long write carries it).
    public func maximumWriteValueLength(for type: CBCharacteristicWriteType) -> Int {
        switch type {
        case .withResponse: return 512
        case .withoutResponse: return Int(lock.guarded { connection?.mtu ?? 23 }) - 3
        }
    }

    /// Runs `body` on the delegate's queue (Sendable values only cross to it).
    func onQueue(_ body: @escaping @Sendable (CBPeripheral) -> Void) {
        queue.async { body(self) }
    }

    /// Queues a request of the current connection; a request made while not connected is
    /// ignored, as iOS does, with its API MISUSE line. `job` is given the link and whether its
    /// connection is still the current one when it wants to report.
    func request(_ what: String, _ job: @escaping @Sendable (Peripheral, _ current: @escaping @Sendable () -> Bool) async -> Void) {
        let found: (Peripheral, RequestQueue, Int)? = lock.guarded {
            guard storedState == .connected, let c = connection else { return nil }
            return (c.link, c.requests, generation)
        }
        guard let found else {
            CBLog.misuse("\(what) on \(self) while it is not connected: ignored")
            return
        }
        let (link, requests, g) = found
        requests.enqueue { [self] in
            await job(link) { [self] in lock.guarded { generation == g && connection != nil } }
        }
    }

    public override var description: String {
        "<CBPeripheral: \(identifier.uuidString), name = \(name ?? "(null)"), state = \(state)>"
    }
}
