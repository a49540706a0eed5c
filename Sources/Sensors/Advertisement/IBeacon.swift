import Wire

/// Apple's iBeacon (Proximity Beacon Specification R1): Manufacturer Specific Data of company
/// 0x004C whose data is type 0x02, length 0x15, then the proximity UUID (16 octets), major and
/// minor (uint16 each) — all three big-endian, unlike Bluetooth fields — and the measured power
/// (int8, RSSI at 1 m).
public struct IBeacon: Sendable, Hashable {
    public static let company = CompanyIdentifier(0x004C)

    public var proximityUUID: BluetoothUUID
    public var major: UInt16
    public var minor: UInt16
    /// Calibrated RSSI at 1 m, dBm.
    public var measuredPower: Int8

    public init(proximityUUID: BluetoothUUID, major: UInt16, minor: UInt16, measuredPower: Int8) {
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
    }

    /// nil when the data is not an iBeacon at all (another company, another Apple type);
    /// throws when it is one but the octets are short.
    public static func decode(_ m: ADManufacturerData) throws(WireError) -> IBeacon? {
        guard m.company == company, m.data.count >= 2,
              m.data[m.data.startIndex] == 0x02, m.data[m.data.startIndex + 1] == 0x15 else { return nil }
        var r = ByteReader(m.data.dropFirst(2))
        let uuidBytes = try r.bytes(16, "iBeacon proximity UUID")
        guard let uuid = BluetoothUUID(littleEndian: ArraySlice(uuidBytes.reversed())) else {
            throw WireError.malformed("iBeacon proximity UUID")
        }
        let major = try r.u16BE("iBeacon major")
        let minor = try r.u16BE("iBeacon minor")
        let power = try r.i8("iBeacon measured power")
        return IBeacon(proximityUUID: uuid, major: major, minor: minor, measuredPower: power)
    }

    /// The first iBeacon in advertising data, if any.
    public static func decode(_ data: AdvertisingData) throws(WireError) -> IBeacon? {
        for m in data.allManufacturerData {
            if let b = try decode(m) { return b }
        }
        return nil
    }

    public var manufacturerData: ADManufacturerData {
        var w = ByteWriter(capacity: 23)
        w.u8(0x02)
        w.u8(0x15)
        w.append(proximityUUID.littleEndianBytes128.reversed())
        w.u16BE(major)
        w.u16BE(minor)
        w.i8(measuredPower)
        return ADManufacturerData(company: Self.company, data: w.bytes)
    }
}
