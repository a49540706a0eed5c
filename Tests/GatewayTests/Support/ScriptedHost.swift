import HostCore
import Wire

/// A host that records what the gateway asks of it and answers nothing by itself: the test
/// feeds the controller the events a real host would raise. Stands in for either backend (the
/// `Host` protocol's link requests are requirements for this purpose).
final class ScriptedHost: Host {
    let linkTable = LinkTable()
    var isReady = true
    var hasFailed = false
    var controllerInfo: ControllerInfo? = ControllerInfo()
    private(set) var isScanning = false
    var nextDeadline: HostTime? { nil }

    /// Every connect: the peer, its plan and the link given.
    private(set) var connects: [(peer: DeviceAddress, plan: LinkPlan, link: LinkID)] = []
    private(set) var disconnects: [LinkID] = []
    private(set) var operations: [(op: OperationID, operation: GATTOperation, link: LinkID)] = []
    private(set) var scanRequests: [Bool] = []
    /// Every security level asked of a link.
    private(set) var secures: [(link: LinkID, need: SecurityNeed)] = []
    /// The bonds it holds, by identity address (`removeBond` takes them out).
    var heldBonds: [DeviceAddress: BondRecord] = [:]
    var bonds: [BondRecord] { Array(heldBonds.values) }

    /// Holds a bond made with `peer` under the identity `identity` the peer distributed.
    func hold(_ peer: DeviceAddress, identity: DeviceAddress? = nil) {
        let bond = BondRecord(pairing: PairingResult(peerAddress: peer, identityAddress: identity, model: .justWorks,
                                                          secureConnections: true, keySize: 16, bonded: true))
        heldBonds[bond.address] = bond
    }
    private var links: [DeviceAddress: LinkID] = [:]
    private var nextLink: UInt32 = 1
    private var nextOperation: UInt64 = 1

    func start(at now: HostTime) {}
    func startScan(_ scan: ScanConfiguration?, at now: HostTime) { isScanning = true; scanRequests.append(true) }
    func stopScan(at now: HostTime) { isScanning = false; scanRequests.append(false) }
    func advanceTime(to now: HostTime) {}
    func serviceLinks(at now: HostTime) {}

    func connect(to peer: DeviceAddress, plan: LinkPlan, at now: HostTime) -> LinkID {
        let id = links[peer] ?? LinkID(rawValue: nextLink)
        if links[peer] == nil {
            nextLink += 1
            links[peer] = id
        }
        connects.append((peer, plan, id))
        return id
    }

    func disconnect(_ link: LinkID, at now: HostTime) { disconnects.append(link) }

    func perform(_ operation: GATTOperation, on link: LinkID, at now: HostTime) -> OperationID {
        let op = OperationID(rawValue: nextOperation)
        nextOperation += 1
        operations.append((op, operation, link))
        return op
    }

    func pollEvent() -> HostEvent? { nil }

    func secure(_ link: LinkID, _ need: SecurityNeed, at now: HostTime) { secures.append((link, need)) }
    func removeBond(_ peer: DeviceAddress) -> Bool { heldBonds.removeValue(forKey: peer) != nil }

    func link(to peer: DeviceAddress) -> LinkID? { connects.last { $0.peer == peer }?.link }
}
