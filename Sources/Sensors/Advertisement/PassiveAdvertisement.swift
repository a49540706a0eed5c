import Wire

/// A sensor reading found in an advertisement without connecting: the formats a gateway user
/// expects to see published (iBeacon, Eddystone, BTHome v2), or why one of them did not decode.
public enum PassiveAdvertisement: Sendable, Equatable {
    case iBeacon(IBeacon)
    case eddystone(EddystoneFrame)
    case bthome(BTHomeAdvertisement)
    /// The advertisement claims a format (Apple type 0x02, UUID 0xFEAA) but its octets are bad.
    case malformed(format: String, WireError)

    /// Every passive format in `data`, in a fixed order (iBeacon, Eddystone, BTHome). BTHome
    /// payloads that are encrypted are decrypted when `bthomeKey` and a cipher are given, and
    /// otherwise reported with issue `.encryptedWithoutKey`.
    public static func decode(_ data: AdvertisingData, address: BDAddress,
                              bthomeKey: [UInt8]? = nil, cipher: (any BTHomeCipher)? = nil) -> [PassiveAdvertisement] {
        var out: [PassiveAdvertisement] = []
        do throws(WireError) {
            if let b = try IBeacon.decode(data) { out.append(.iBeacon(b)) }
        } catch {
            out.append(.malformed(format: "iBeacon", error))
        }
        do throws(WireError) {
            if let f = try EddystoneFrame.decode(data) { out.append(.eddystone(f)) }
        } catch {
            out.append(.malformed(format: "Eddystone", error))
        }
        if var b = BTHomeAdvertisement(advertisingData: data) {
            if b.encrypted != nil, let key = bthomeKey, let cipher {
                b = b.decrypting(key: key, address: address, cipher: cipher)
            }
            out.append(.bthome(b))
        }
        return out
    }

    /// Short name of the format, for topics and logs.
    public var format: String {
        switch self {
        case .iBeacon: return "ibeacon"
        case .eddystone: return "eddystone"
        case .bthome: return "bthome"
        case .malformed(let f, _): return f
        }
    }

    /// The quantities to publish. Keys repeated within one BTHome payload (two temperatures)
    /// get `_2`, `_3`… in order, so each stays its own entity.
    public var quantities: [SensorQuantity] {
        switch self {
        case .iBeacon(let b):
            return [
                SensorQuantity(key: "ibeacon_uuid", name: "iBeacon UUID", value: .text(b.proximityUUID.fullString), kind: .diagnostic),
                .number("ibeacon_major", "iBeacon major", Int64(b.major), unit: nil, kind: .diagnostic),
                .number("ibeacon_minor", "iBeacon minor", Int64(b.minor), unit: nil, kind: .diagnostic),
                .number("measured_power", "Measured power", Int64(b.measuredPower), unit: .decibelMilliwatts,
                        deviceClass: .signalStrength, kind: .diagnostic),
            ]
        case .eddystone(let f):
            return f.quantities
        case .bthome(let b):
            var seen: [String: Int] = [:]
            return b.objects.map { o in
                let n = (seen[o.type.key] ?? 0) + 1
                seen[o.type.key] = n
                return SensorQuantity(key: n == 1 ? o.type.key : o.type.key + "_\(n)", name: n == 1 ? o.type.name : o.type.name + " \(n)",
                                      value: o.value, unit: o.type.unit, deviceClass: o.type.deviceClass, kind: o.type.kind)
            }
        case .malformed:
            return []
        }
    }
}

extension EddystoneFrame {
    public var quantities: [SensorQuantity] {
        switch self {
        case .uid(let u):
            return [SensorQuantity(key: "eddystone_uid", name: "Eddystone UID", value: .text(u.beaconID), kind: .diagnostic),
                    .number("tx_power", "Tx power at 0 m", Int64(u.txPower), unit: .decibelMilliwatts,
                            deviceClass: .signalStrength, kind: .diagnostic)]
        case .url(let u):
            return [SensorQuantity(key: "eddystone_url", name: "Eddystone URL", value: .text(u.url), kind: .diagnostic),
                    .number("tx_power", "Tx power at 0 m", Int64(u.txPower), unit: .decibelMilliwatts,
                            deviceClass: .signalStrength, kind: .diagnostic)]
        case .tlm(let t):
            return [
                SensorQuantity(key: "battery_voltage", name: "Battery voltage",
                               value: t.batteryMillivolts == 0 ? .unavailable("not supported")
                                   : .number(DecimalNumber(Int64(t.batteryMillivolts), exponent: -3)),
                               unit: .volts, deviceClass: .voltage),
                SensorQuantity(key: "temperature", name: "Temperature",
                               value: t.temperatureHundredths.map { .number(DecimalNumber($0, exponent: -2)) } ?? .unavailable("not supported"),
                               unit: .celsius, deviceClass: .temperature),
                .number("advertising_count", "Advertising count", Int64(t.advertisingCount), unit: nil, kind: .totalIncreasing),
                .number("uptime", "Uptime", Int64(t.uptimeTenths), exponent: -1, unit: .seconds,
                        deviceClass: .duration, kind: .totalIncreasing),
            ]
        case .encryptedTLM:
            return [SensorQuantity(key: "telemetry", name: "Telemetry", value: .unavailable("encrypted"), kind: .diagnostic)]
        case .eid(let e):
            return [SensorQuantity(key: "eddystone_eid", name: "Eddystone EID", value: .text(Hex.string(e.ephemeralID)), kind: .diagnostic)]
        }
    }
}
