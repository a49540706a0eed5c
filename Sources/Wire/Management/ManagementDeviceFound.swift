/// Device Found (0x0012, BlueZ doc/mgmt-api): a device seen during discovery. For LE the kernel
/// hands over the advertising data (merged with the scan response when it waited for one) in
/// EIR_Data, which has the AD structure layout (Core Spec v5.4 Vol 3, Part C, §11).
public struct ManagementDeviceFound: Sendable, WireCodable {
    /// Address_Type: 0x00 BR/EDR, 0x01 LE Public, 0x02 LE Random.
    public var address: BDAddress
    public var addressType: UInt8
    /// 127 means not available.
    public var rssi: Int8
    public var flags: Flags
    public var eirData: ArraySlice<UInt8>

    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let confirmName = Flags(rawValue: 1 << 0)
        public static let legacyPairing = Flags(rawValue: 1 << 1)
        public static let notConnectable = Flags(rawValue: 1 << 2)
        public static let nameRequestFailed = Flags(rawValue: 1 << 4)
        public static let scanResponse = Flags(rawValue: 1 << 5)
    }

    public init(address: BDAddress, addressType: UInt8, rssi: Int8, flags: Flags, eirData: ArraySlice<UInt8>) {
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.flags = flags
        self.eirData = eirData
    }

    /// The LE address, nil for a BR/EDR device (or an address type this kernel ABI lacks).
    public var leAddress: DeviceAddress? {
        switch addressType {
        case 0x01: return DeviceAddress(address, type: .publicDevice)
        case 0x02: return DeviceAddress(address, type: .randomDevice)
        default: return nil
        }
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        let raw = try r.bytes(6, "Address")
        guard let a = BDAddress(littleEndian: raw) else { throw .malformed("Address") }
        address = a
        addressType = try r.u8("Address_Type")
        rssi = try r.i8("RSSI")
        flags = Flags(rawValue: try r.u32("Flags"))
        let length = Int(try r.u16("EIR_Data_Length"))
        eirData = try r.bytes(length, "EIR_Data")
    }

    public func encode(into w: inout ByteWriter) {
        w.append(address.bytes)
        w.u8(addressType)
        w.i8(rssi)
        w.u32(flags.rawValue)
        w.u16(UInt16(truncatingIfNeeded: eirData.count))
        w.append(eirData)
    }
}

/// Read Controller Information's return parameters (BlueZ doc/mgmt-api, 0x0004). Name and
/// Short_Name are kept as bytes up to their first NUL.
public struct ManagementControllerInformation: Sendable, Hashable, WireCodable {
    public var address: BDAddress
    public var bluetoothVersion: UInt8
    public var manufacturer: UInt16
    public var supportedSettings: ManagementSettings
    public var currentSettings: ManagementSettings
    public var classOfDevice: UInt32
    public var name: String
    public var shortName: String

    public static let nameLength = 249
    public static let shortNameLength = 11

    public init(address: BDAddress, bluetoothVersion: UInt8, manufacturer: UInt16, supportedSettings: ManagementSettings,
                currentSettings: ManagementSettings, classOfDevice: UInt32, name: String, shortName: String) {
        self.address = address
        self.bluetoothVersion = bluetoothVersion
        self.manufacturer = manufacturer
        self.supportedSettings = supportedSettings
        self.currentSettings = currentSettings
        self.classOfDevice = classOfDevice
        self.name = name
        self.shortName = shortName
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        guard let a = BDAddress(littleEndian: try r.bytes(6, "Address")) else { throw .malformed("Address") }
        address = a
        bluetoothVersion = try r.u8("Bluetooth_Version")
        manufacturer = try r.u16("Manufacturer")
        supportedSettings = ManagementSettings(rawValue: try r.u32("Supported_Settings"))
        currentSettings = ManagementSettings(rawValue: try r.u32("Current_Settings"))
        classOfDevice = try r.u24("Class_Of_Device")
        name = String(decoding: try r.bytes(Self.nameLength, "Name").prefix { $0 != 0 }, as: UTF8.self)
        shortName = String(decoding: try r.bytes(Self.shortNameLength, "Short_Name").prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Names longer than their fields are cut (the last octet stays NUL).
    public func encode(into w: inout ByteWriter) {
        w.append(address.bytes)
        w.u8(bluetoothVersion)
        w.u16(manufacturer)
        w.u32(supportedSettings.rawValue)
        w.u32(currentSettings.rawValue)
        w.u24(classOfDevice)
        for (text, size) in [(name, Self.nameLength), (shortName, Self.shortNameLength)] {
            let bytes = Array(text.utf8.prefix(size - 1))
            w.append(bytes)
            w.append(repeatElement(UInt8(0), count: size - bytes.count))
        }
    }
}
