/// The typed content of one AD structure. Types this stack has no model for stay `unparsed`
/// with their octets, so nothing a peer sends is lost on the way to the dissector.
public enum ADValue: Hashable, Sendable {
    /// 0x01
    case flags(ADFlags)
    /// 0x02–0x07 (offered) and 0x14, 0x15, 0x1F (solicited); the list's type tells which.
    case serviceUUIDs(ServiceUUIDList)
    /// 0x08 and 0x09
    case localName(ADLocalName)
    /// 0x0A: radiated power in dBm, for path-loss estimates from RSSI.
    case txPowerLevel(Int8)
    /// 0x0D: 24-bit Class of Device.
    case classOfDevice(UInt32)
    /// 0x12
    case peripheralConnectionIntervalRange(ConnectionIntervalRange)
    /// 0x16, 0x20, 0x21
    case serviceData(ADServiceData)
    /// 0x17
    case publicTargetAddresses([BDAddress])
    /// 0x18
    case randomTargetAddresses([BDAddress])
    /// 0x19
    case appearance(Appearance)
    /// 0x1A and 0x2F
    case advertisingInterval(AdvertisingInterval)
    /// 0x1B: the device's own address and its type.
    case leBluetoothDeviceAddress(DeviceAddress)
    /// 0x1C
    case leRole(ADLERole)
    /// 0x24
    case uri(ADURI)
    /// 0x30: UTF-8, invalid sequences replaced.
    case broadcastName(String)
    /// 0xFF
    case manufacturerSpecificData(ADManufacturerData)
    /// Any other type, or one whose content is opaque to a host (keys, mesh PDUs…).
    case unparsed(ADType, ArraySlice<UInt8>)

    /// The AD type this value is written with.
    public var type: ADType {
        switch self {
        case .flags: return .flags
        case .serviceUUIDs(let l): return l.type
        case .localName(let n): return n.isComplete ? .completeLocalName : .shortenedLocalName
        case .txPowerLevel: return .txPowerLevel
        case .classOfDevice: return .classOfDevice
        case .peripheralConnectionIntervalRange: return .peripheralConnectionIntervalRange
        case .serviceData(let d): return d.type
        case .publicTargetAddresses: return .publicTargetAddress
        case .randomTargetAddresses: return .randomTargetAddress
        case .appearance: return .appearance
        case .advertisingInterval(let i): return i.type
        case .leBluetoothDeviceAddress: return .leBluetoothDeviceAddress
        case .leRole: return .leRole
        case .uri: return .uri
        case .broadcastName: return .broadcastName
        case .manufacturerSpecificData: return .manufacturerSpecificData
        case .unparsed(let t, _): return t
        }
    }

    /// Decodes the data of a structure of type `type`. Throws only where the octets cannot
    /// hold the type's fields (see `ADValue.check`); extra trailing octets are ignored for
    /// forward compatibility.
    public static func decode(type: ADType, data: ArraySlice<UInt8>) throws(WireError) -> ADValue {
        if let problem = check(type: type, data: data) { throw problem }
        var r = ByteReader(data)
        switch type.rawValue {
        case 0x01:
            return .flags(ADFlags(rawValue: data.first ?? 0))
        case 0x02...0x07, 0x14, 0x15, 0x1F:
            return .serviceUUIDs(try ServiceUUIDList.decode(type: type, data: data))
        case 0x08, 0x09:
            return .localName(ADLocalName(ADLocalName.text(from: data), isComplete: type == .completeLocalName))
        case 0x0A:
            return .txPowerLevel(try r.i8("TX Power Level"))
        case 0x0D:
            return .classOfDevice(try r.u24("Class of Device"))
        case 0x12:
            return .peripheralConnectionIntervalRange(try ConnectionIntervalRange.decode(data))
        case 0x16, 0x20, 0x21:
            return .serviceData(try ADServiceData.decode(type: type, data: data))
        case 0x17, 0x18:
            var list: [BDAddress] = []
            list.reserveCapacity(data.count / 6)
            while !r.isAtEnd {
                if let a = BDAddress(littleEndian: try r.bytes(6, "Target Address")) { list.append(a) }
            }
            return type == .publicTargetAddress ? .publicTargetAddresses(list) : .randomTargetAddresses(list)
        case 0x19:
            return .appearance(Appearance(rawValue: try r.u16("Appearance")))
        case 0x1A, 0x2F:
            return .advertisingInterval(try AdvertisingInterval.decode(type: type, data: data))
        case 0x1B:
            let raw = try r.bytes(6, "LE Bluetooth Device Address")
            let flags = try r.u8("Address Type")
            guard let address = BDAddress(littleEndian: raw) else {
                throw WireError.malformed("LE Bluetooth Device Address")
            }
            return .leBluetoothDeviceAddress(DeviceAddress(address, type: flags & 1 == 0 ? .publicDevice : .randomDevice))
        case 0x1C:
            return .leRole(ADLERole(rawValue: try r.u8("LE Role")))
        case 0x24:
            return .uri(try ADURI.decode(data))
        case 0x30:
            return .broadcastName(String(decoding: data, as: UTF8.self))
        case 0xFF:
            return .manufacturerSpecificData(try ADManufacturerData.decode(data))
        default:
            return .unparsed(type, data)
        }
    }

    /// Why octets of this count cannot be a value of `type`, without decoding anything
    /// (cheap enough to run on every structure the parser sees); nil when they can.
    public static func check(type: ADType, data: ArraySlice<UInt8>) -> WireError? {
        let count = data.count
        func atLeast(_ n: Int, _ field: String) -> WireError? {
            count < n ? .truncated(field: field, needed: n, available: count) : nil
        }
        switch type.rawValue {
        case 0x02...0x07, 0x14, 0x15, 0x1F:
            let w = type.uuidWidth?.byteCount ?? 16
            return count % w == 0 ? nil
                : .malformed("\(type.name): \(count) byte(s) is not a multiple of \(w)")
        case 0x0A: return atLeast(1, "TX Power Level")
        case 0x0D: return atLeast(3, "Class of Device")
        case 0x12: return atLeast(4, "Peripheral Connection Interval Range")
        case 0x16: return atLeast(2, "Service Data UUID16")
        case 0x20: return atLeast(4, "Service Data UUID32")
        case 0x21: return atLeast(16, "Service Data UUID128")
        case 0x17, 0x18:
            return count % 6 == 0 ? nil : .malformed("\(type.name): \(count) byte(s) is not a multiple of 6")
        case 0x19: return atLeast(2, "Appearance")
        case 0x1A: return atLeast(2, "Advertising Interval")
        case 0x2F: return atLeast(3, "Advertising Interval - long")
        case 0x1B: return atLeast(7, "LE Bluetooth Device Address")
        case 0x1C: return atLeast(1, "LE Role")
        case 0x24:
            if count < 1 { return .truncated(field: "URI scheme", needed: 1, available: 0) }
            if ADURI.firstCodePoint(data) == nil, let b = data.first {
                return .invalidValue(field: "URI scheme", value: UInt64(b))
            }
            return nil
        case 0xFF: return atLeast(2, "Company Identifier Code")
        default: return nil
        }
    }

    /// Writes the value's data octets (without the length and type octets).
    public func encodeData(into w: inout ByteWriter) {
        switch self {
        case .flags(let f): w.u8(f.rawValue)
        case .serviceUUIDs(let l): l.encodeData(into: &w)
        case .localName(let n): w.append(n.text.utf8)
        case .txPowerLevel(let p): w.i8(p)
        case .classOfDevice(let c): w.u24(c)
        case .peripheralConnectionIntervalRange(let r): r.encodeData(into: &w)
        case .serviceData(let d): d.encodeData(into: &w)
        case .publicTargetAddresses(let list), .randomTargetAddresses(let list):
            for a in list { w.append(a.bytes) }
        case .appearance(let a): w.u16(a.rawValue)
        case .advertisingInterval(let i): i.encodeData(into: &w)
        case .leBluetoothDeviceAddress(let d):
            w.append(d.address.bytes)
            w.u8(d.type.isRandom ? 1 : 0)
        case .leRole(let r): w.u8(r.rawValue)
        case .uri(let u): u.encodeData(into: &w)
        case .broadcastName(let s): w.append(s.utf8)
        case .manufacturerSpecificData(let m): m.encodeData(into: &w)
        case .unparsed(_, let d): w.append(d)
        }
    }

    /// The data octets as an array.
    public var encodedData: [UInt8] {
        var w = ByteWriter()
        encodeData(into: &w)
        return w.bytes
    }
}
