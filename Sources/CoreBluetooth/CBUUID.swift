import Foundation
import Wire

/// A Bluetooth UUID as Apple's `CBUUID`: made from 16-, 32- or 128-bit text or bytes, equal
/// across forms (`180D` equals `0000180D-0000-1000-8000-00805F9B34FB`: both are the same UUID
/// on the Bluetooth Base UUID, Core Spec v5.4 Vol 3, Part B, §2.5.1), shown in its shortest form.
public final class CBUUID: NSObject, NSCopying, @unchecked Sendable {
    // Sendable: immutable after init (one `let`, no `var`); NSObject alone keeps the compiler
    // from seeing it.
    // Sendable without a lock: `value` is a `let` of a Sendable type and nothing else is stored.
    let value: BluetoothUUID

    init(_ value: BluetoothUUID) {
        self.value = value
    }

    /// `180D`, `0x180D`, `0000FEAA` or the 36-character form. Apple raises an exception for
    /// anything else; this logs an API MISUSE line and gives the nil UUID (all zeros) instead.
    public convenience init(string theString: String) {
        if let v = BluetoothUUID(string: theString) {
            self.init(v)
        } else {
            CBLog.misuse("CBUUID(string: \"\(theString)\") is not a 16-, 32- or 128-bit UUID; using 00000000-0000-0000-0000-000000000000")
            self.init(BluetoothUUID(high: 0, low: 0))
        }
    }

    /// 2, 4 or 16 bytes, most significant first (as `data` gives them back).
    public convenience init(data theData: Data) {
        let b = [UInt8](theData)
        switch b.count {
        case 2: self.init(BluetoothUUID(UInt16(b[0]) << 8 | UInt16(b[1])))
        case 4: self.init(BluetoothUUID(uuid32: b.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
        case 16:
            let high = b[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = b[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            self.init(BluetoothUUID(high: high, low: low))
        default:
            CBLog.misuse("CBUUID(data:) needs 2, 4 or 16 bytes, not \(b.count); using 00000000-0000-0000-0000-000000000000")
            self.init(BluetoothUUID(high: 0, low: 0))
        }
    }

    public convenience init(nsuuid theUUID: UUID) {
        self.init(data: withUnsafeBytes(of: theUUID.uuid) { Data($0) })
    }

    /// `180D` for a UUID on the Base UUID with a 16-bit alias, 8 digits for a 32-bit one, else
    /// the upper-case 8-4-4-4-12 form.
    public var uuidString: String { value.string }

    /// The shortest form's bytes, most significant first.
    public var data: Data {
        if let s = value.uuid16 { return Data([UInt8(s >> 8), UInt8(s & 0xFF)]) }
        if let s = value.uuid32 { return Data((0..<4).reversed().map { UInt8(truncatingIfNeeded: s >> ($0 * 8)) }) }
        return Data(value.littleEndianBytes128.reversed())
    }

    public override var description: String { uuidString }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CBUUID else { return false }
        return other.value == value
    }

    public override var hash: Int { value.hashValue }

    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// Descriptor UUIDs Apple names (Core Spec v5.4 Vol 3, Part G, §3.3.3).
public let CBUUIDCharacteristicExtendedPropertiesString = "2900"
public let CBUUIDCharacteristicUserDescriptionString = "2901"
public let CBUUIDClientCharacteristicConfigurationString = "2902"
public let CBUUIDServerCharacteristicConfigurationString = "2903"
public let CBUUIDCharacteristicFormatString = "2904"
public let CBUUIDCharacteristicAggregateFormatString = "2905"
public let CBUUIDCharacteristicValidRangeString = "2906"
/// The L2CAP PSM characteristic Apple's peripherals publish (ABDD3056-28FA-441D-A470-55A75A52553A).
public let CBUUIDL2CAPPSMCharacteristicString = "ABDD3056-28FA-441D-A470-55A75A52553A"
