import Wire

/// Google's Eddystone (github.com/google/eddystone, protocol-specification.md): Service Data
/// for UUID 0xFEAA whose first octet's high nibble says the frame type. The low nibble is
/// reserved (0) and ignored.
public enum EddystoneFrame: Sendable, Hashable {
    case uid(EddystoneUID)
    case url(EddystoneURL)
    case tlm(EddystoneTLM)
    /// TLM version 0x01: encrypted telemetry (ETLM), opaque without the beacon's identity key.
    case encryptedTLM(EddystoneEncryptedTLM)
    case eid(EddystoneEID)

    public static let serviceUUID = BluetoothUUID(0xFEAA)

    public static func decode(serviceData: ArraySlice<UInt8>) throws(WireError) -> EddystoneFrame {
        var r = ByteReader(serviceData)
        let type = try r.u8("Eddystone frame type")
        switch type & 0xF0 {
        case 0x00: return .uid(try EddystoneUID(decoding: &r))
        case 0x10: return .url(try EddystoneURL(decoding: &r))
        case 0x20:
            let version = try r.u8("Eddystone-TLM version")
            switch version {
            case 0x00: return .tlm(try EddystoneTLM(decoding: &r))
            case 0x01: return .encryptedTLM(try EddystoneEncryptedTLM(decoding: &r))
            default: throw WireError.invalidValue(field: "Eddystone-TLM version", value: UInt64(version))
            }
        case 0x30: return .eid(try EddystoneEID(decoding: &r))
        default: throw WireError.invalidValue(field: "Eddystone frame type", value: UInt64(type))
        }
    }

    public static func decode(serviceData: [UInt8]) throws(WireError) -> EddystoneFrame {
        try decode(serviceData: serviceData[...])
    }

    /// The Eddystone frame in advertising data; nil when there is none.
    public static func decode(_ data: AdvertisingData) throws(WireError) -> EddystoneFrame? {
        guard let d = data.serviceData(for: serviceUUID) else { return nil }
        return try decode(serviceData: d)
    }

    /// The service data octets (frame type first), for tests and simulated beacons.
    public var serviceData: [UInt8] {
        var w = ByteWriter(capacity: 20)
        switch self {
        case .uid(let f): w.u8(0x00); f.encode(into: &w)
        case .url(let f): w.u8(0x10); f.encode(into: &w)
        case .tlm(let f): w.u8(0x20); w.u8(0x00); f.encode(into: &w)
        case .encryptedTLM(let f): w.u8(0x20); w.u8(0x01); f.encode(into: &w)
        case .eid(let f): w.u8(0x30); f.encode(into: &w)
        }
        return w.bytes
    }
}
