import Foundation
import Wire

/// A descriptor of a characteristic. Its `value` has Apple's types: `NSNumber` for the
/// Extended Properties and the Client/Server Characteristic Configuration, `String` for the
/// User Description, `Data` for everything else.
public class CBDescriptor: CBAttribute, @unchecked Sendable {
    // Sendable: the rule of `CBManager` (every `var` read and written only inside the
    // manager's lock, `CBAttribute.lock`).
    let handle: UInt16
    private weak var owner: CBCharacteristic?
    var storedValue: Data?

    init(uuid: BluetoothUUID, handle: UInt16, characteristic: CBCharacteristic, lock: NSRecursiveLock) {
        self.handle = handle
        owner = characteristic
        super.init(uuid: CBUUID(uuid), lock: lock)
    }

    public var characteristic: CBCharacteristic? { owner }

    public var value: Any? {
        guard let d = lock.guarded({ storedValue }) else { return nil }
        switch uuid.value.uuid16 {
        case 0x2900, 0x2902, 0x2903:
            let b = [UInt8](d)
            return NSNumber(value: UInt16(b.first ?? 0) | UInt16(b.count > 1 ? b[1] : 0) << 8)
        case 0x2901:
            return String(decoding: d, as: UTF8.self)
        default:
            return d
        }
    }
}

/// UUIDs the module looks for.
enum BluetoothUUIDs {
    static let cccd = BluetoothUUID(0x2902)
}
