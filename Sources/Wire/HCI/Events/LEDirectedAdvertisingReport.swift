/// One report of an LE Directed Advertising Report event (fixed 16 bytes).
public struct LEDirectedAdvertisingReport: WireCodable, FieldDescribing, Hashable {
    /// Always ADV_DIRECT_IND in the specification; kept raw.
    public var eventType: LEAdvertisingEventType
    public var addressType: LEAddressType
    public private(set) var addressBytes: ArraySlice<UInt8>
    public var directAddressType: LEReportAddressType
    public private(set) var directAddressBytes: ArraySlice<UInt8>
    /// dBm; 127 means not available.
    public var rssi: Int8

    public init(eventType: LEAdvertisingEventType = .advDirectInd, addressType: LEAddressType, address: BDAddress,
                directAddressType: LEReportAddressType = .randomDevice, directAddress: BDAddress, rssi: Int8) {
        self.eventType = eventType
        self.addressType = addressType
        self.addressBytes = address.bytes[...]
        self.directAddressType = directAddressType
        self.directAddressBytes = directAddress.bytes[...]
        self.rssi = rssi
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        eventType = LEAdvertisingEventType(rawValue: try r.u8("Event_Type"))
        addressType = try r.eventAddressType("Address_Type")
        addressBytes = try r.bytes(6, "Address")
        directAddressType = LEReportAddressType(rawValue: try r.u8("Direct_Address_Type"))
        directAddressBytes = try r.bytes(6, "Direct_Address")
        rssi = try r.i8("RSSI")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(eventType.rawValue)
        w.u8(addressType.rawValue)
        w.eventAddressBytes(addressBytes)
        w.u8(directAddressType.rawValue)
        w.eventAddressBytes(directAddressBytes)
        w.i8(rssi)
    }

    public var address: BDAddress {
        get { BDAddress.fromChecked(addressBytes) }
        set { addressBytes = newValue.bytes[...] }
    }

    public var directAddress: BDAddress {
        get { BDAddress.fromChecked(directAddressBytes) }
        set { directAddressBytes = newValue.bytes[...] }
    }

    public var advertiser: DeviceAddress { DeviceAddress(address, type: addressType) }

    public var summary: String {
        eventType.name + " " + advertiser.description + " to " + directAddress.string + " "
            + EventFormat.dBmShort(rssi)
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Event type", eventType.description)
        f.add("Address type", EventFormat.named(addressType.name, addressType.rawValue))
        f.add("Address", LEConnectionText.address(address, addressType))
        f.add("Direct address type", directAddressType.description)
        f.add("Direct address", directAddress.string)
        f.add("RSSI", EventFormat.dBm(rssi))
    }
}
