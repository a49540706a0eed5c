/// Manufacturer Specific Data: a company identifier and octets whose meaning that company
/// defines (Core Specification Supplement Part A §1.4).
public struct ADManufacturerData: Hashable, Sendable {
    public var company: CompanyIdentifier
    /// The octets after the company identifier; a slice of the advertising data when decoded.
    public var data: ArraySlice<UInt8>

    public init(company: CompanyIdentifier, data: ArraySlice<UInt8>) {
        self.company = company
        self.data = data
    }

    public init(company: CompanyIdentifier, data: [UInt8]) {
        self.init(company: company, data: data[...])
    }

    static func decode(_ bytes: ArraySlice<UInt8>) throws(WireError) -> ADManufacturerData {
        var r = ByteReader(bytes)
        let company = CompanyIdentifier(try r.u16("Company Identifier Code"))
        return ADManufacturerData(company: company, data: r.rest())
    }

    func encodeData(into w: inout ByteWriter) {
        w.u16(company.rawValue)
        w.append(data)
    }
}

/// Service Data: a service UUID and data that service's specification defines
/// (Core Specification Supplement Part A §1.11).
public struct ADServiceData: Hashable, Sendable {
    public var uuid: BluetoothUUID
    /// The width the UUID is (or will be) carried in: 0x16, 0x20 or 0x21.
    public var width: BluetoothUUID.Width
    public var data: ArraySlice<UInt8>

    public init(uuid: BluetoothUUID, data: ArraySlice<UInt8>, width: BluetoothUUID.Width? = nil) {
        self.uuid = uuid
        self.data = data
        self.width = width ?? uuid.shortestWidth
    }

    public init(uuid: BluetoothUUID, data: [UInt8], width: BluetoothUUID.Width? = nil) {
        self.init(uuid: uuid, data: data[...], width: width)
    }

    public var type: ADType { .serviceData(width) }

    static func decode(type: ADType, data: ArraySlice<UInt8>) throws(WireError) -> ADServiceData {
        let width = type.uuidWidth ?? .bits16
        var r = ByteReader(data)
        let uuid = try BluetoothUUID(reading: &r, width: width)
        return ADServiceData(uuid: uuid, data: r.rest(), width: width)
    }

    func encodeData(into w: inout ByteWriter) {
        uuid.write(to: &w, width: width)
        w.append(data)
    }
}
