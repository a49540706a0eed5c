import Foundation
import HostCore

/// A characteristic of a peer: its declaration, its last value (set before each
/// `didUpdateValueFor`), its descriptors once discovered, and whether it notifies.
public class CBCharacteristic: CBAttribute, @unchecked Sendable {
    // Sendable: the rule of `CBManager` (every `var` read and written only inside the
    // manager's lock, `CBAttribute.lock`).
    let valueHandle: UInt16
    let endHandle: UInt16
    private weak var owner: CBService?
    private let declared: CBCharacteristicProperties
    var storedValue: Data?
    var storedDescriptors: [CBDescriptor]?
    var storedNotifying = false

    init(_ c: GATTCharacteristic, service: CBService, lock: NSRecursiveLock) {
        valueHandle = c.valueHandle
        endHandle = c.endHandle
        declared = CBCharacteristicProperties(rawValue: UInt(c.properties))
        owner = service
        super.init(uuid: CBUUID(c.uuid), lock: lock)
    }

    public var service: CBService? { owner }
    public var properties: CBCharacteristicProperties { declared }
    public var value: Data? { lock.guarded { storedValue } }
    public var descriptors: [CBDescriptor]? { lock.guarded { storedDescriptors } }
    public var isNotifying: Bool { lock.guarded { storedNotifying } }

    /// The CCCD's handle, when the descriptors have been discovered.
    var cccdHandle: UInt16? {
        lock.guarded { storedDescriptors?.first { $0.uuid.value == BluetoothUUIDs.cccd }?.handle }
    }

    public override var description: String {
        "<CBCharacteristic: \(uuid.uuidString), properties = 0x\(String(declared.rawValue, radix: 16)), "
            + "value = \(value.map { "{length = \($0.count)}" } ?? "(null)"), notifying = \(isNotifying ? "YES" : "NO")>"
    }
}
