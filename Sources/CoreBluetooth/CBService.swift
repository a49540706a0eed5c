import Foundation
import HostCore

/// A service of a peer, as `discoverServices` found it (its handle range is what later
/// discoveries search).
public class CBService: CBAttribute, @unchecked Sendable {
    // Sendable: the rule of `CBManager` (every `var` read and written only inside the
    // manager's lock, `CBAttribute.lock`).
    let startHandle: UInt16
    let endHandle: UInt16
    private weak var owner: CBPeripheral?
    private let primary: Bool
    var storedIncluded: [CBService]?
    var storedCharacteristics: [CBCharacteristic]?

    init(_ s: GATTService, peripheral: CBPeripheral, lock: NSRecursiveLock) {
        startHandle = s.startHandle
        endHandle = s.endHandle
        primary = s.isPrimary
        owner = peripheral
        super.init(uuid: CBUUID(s.uuid), lock: lock)
    }

    public var peripheral: CBPeripheral? { owner }
    public var isPrimary: Bool { primary }
    public var includedServices: [CBService]? { lock.guarded { storedIncluded } }
    public var characteristics: [CBCharacteristic]? { lock.guarded { storedCharacteristics } }

    public override var description: String {
        "<CBService: \(uuid.uuidString), isPrimary = \(primary ? "YES" : "NO"), handles \(startHandle)-\(endHandle)>"
    }
}
