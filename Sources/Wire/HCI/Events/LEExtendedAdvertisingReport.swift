/// One report of an LE Extended Advertising Report event.
public struct LEExtendedAdvertisingReport: WireCodable, FieldDescribing, Hashable {
    public var eventType: LEExtendedAdvertisingEventType
    /// May be `.anonymous` (no address sent).
    public var addressType: LEReportAddressType
    /// Wire order, a slice of the event.
    public private(set) var addressBytes: ArraySlice<UInt8>
    public var primaryPHY: LEPHY
    /// `.noPackets` when nothing was received on the secondary channel.
    public var secondaryPHY: LEPHY
    /// 0x00…0x0F, or 0xFF when the PDU had no ADI field.
    public var advertisingSID: UInt8
    /// dBm; 127 means not available.
    public var txPower: Int8
    /// dBm; 127 means not available.
    public var rssi: Int8
    /// In units of 1.25 ms; 0 when there is no periodic advertising.
    public var periodicAdvertisingInterval: UInt16
    public var directAddressType: LEReportAddressType
    /// All zeros for undirected advertising.
    public private(set) var directAddressBytes: ArraySlice<UInt8>
    /// AD structures (Vol 3, Part C, §11), unparsed; possibly a fragment (see `eventType`).
    public var data: ArraySlice<UInt8>

    public init(eventType: LEExtendedAdvertisingEventType, addressType: LEReportAddressType, address: BDAddress,
                primaryPHY: LEPHY = .le1M, secondaryPHY: LEPHY = .noPackets, advertisingSID: UInt8 = 0xFF,
                txPower: Int8 = 127, rssi: Int8, periodicAdvertisingInterval: UInt16 = 0,
                directAddressType: LEReportAddressType = .publicDevice, directAddress: BDAddress = .zero,
                data: ArraySlice<UInt8>) {
        self.eventType = eventType
        self.addressType = addressType
        self.addressBytes = address.bytes[...]
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.advertisingSID = advertisingSID
        self.txPower = txPower
        self.rssi = rssi
        self.periodicAdvertisingInterval = periodicAdvertisingInterval
        self.directAddressType = directAddressType
        self.directAddressBytes = directAddress.bytes[...]
        self.data = data
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        eventType = LEExtendedAdvertisingEventType(rawValue: try r.u16("Event_Type"))
        addressType = LEReportAddressType(rawValue: try r.u8("Address_Type"))
        addressBytes = try r.bytes(6, "Address")
        primaryPHY = LEPHY(rawValue: try r.u8("Primary_PHY"))
        secondaryPHY = LEPHY(rawValue: try r.u8("Secondary_PHY"))
        advertisingSID = try r.u8("Advertising_SID")
        txPower = try r.i8("TX_Power")
        rssi = try r.i8("RSSI")
        periodicAdvertisingInterval = try r.u16("Periodic_Advertising_Interval")
        directAddressType = LEReportAddressType(rawValue: try r.u8("Direct_Address_Type"))
        directAddressBytes = try r.bytes(6, "Direct_Address")
        let length = try r.u8("Data_Length")
        data = try r.bytes(Int(length), "Data")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(eventType.rawValue)
        w.u8(addressType.rawValue)
        w.eventAddressBytes(addressBytes)
        w.u8(primaryPHY.rawValue)
        w.u8(secondaryPHY.rawValue)
        w.u8(advertisingSID)
        w.i8(txPower)
        w.i8(rssi)
        w.u16(periodicAdvertisingInterval)
        w.u8(directAddressType.rawValue)
        w.eventAddressBytes(directAddressBytes)
        w.eventLengthPrefixed(data)
    }

    public var address: BDAddress {
        get { BDAddress.fromChecked(addressBytes) }
        set { addressBytes = newValue.bytes[...] }
    }

    public var directAddress: BDAddress {
        get { BDAddress.fromChecked(directAddressBytes) }
        set { directAddressBytes = newValue.bytes[...] }
    }

    /// The advertiser as a central would connect to it; nil for anonymous advertising.
    public var advertiser: DeviceAddress? {
        addressType.addressType.map { DeviceAddress(address, type: $0) }
    }

    public var summary: String {
        var t = TextBuffer()
        appendSummary(to: &t)
        return t.string
    }

    /// Written into the buffer piece by piece: busy captures of extended scanning are mostly
    /// these reports.
    public func appendSummary(to t: inout TextBuffer) {
        t.append(eventType.legacyEventType?.name ?? "extended")
        t.append(byte: 0x20)
        if let type = addressType.addressType {
            t.appendAddress(wireOrder: addressBytes)
            t.append(type.isRandom ? "/random " : "/public ")
        } else {
            t.append("anonymous ")
        }
        EventFormat.dBmShort(rssi, into: &t)
        t.append(" data ")
        EventFormat.plural(data.count, "byte", into: &t)
        if let name = AdvertisingData.localName(in: data) {
            t.append(byte: 0x20)
            appendQuoted(name, to: &t)
        }
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Event type") { eventType.appendDescription(to: &$0) }
        f.add("Address type") { EventFormat.named(addressType.name, addressType.rawValue, into: &$0) }
        if let t = addressType.addressType {
            f.add("Address") { $0.appendAddressWithKind(wireOrder: addressBytes, t) }
        } else {
            f.add("Address") { $0.appendAddress(wireOrder: addressBytes) }
        }
        f.add("Primary PHY") { EventFormat.named(primaryPHY.name, primaryPHY.rawValue, into: &$0) }
        if secondaryPHY.rawValue == 0 {
            f.add("Secondary PHY", "No packets on the secondary advertising channel (0x00)")
        } else {
            f.add("Secondary PHY") { EventFormat.named(secondaryPHY.name, secondaryPHY.rawValue, into: &$0) }
        }
        if advertisingSID == 0xFF {
            f.add("Advertising SID", "no ADI field (0xFF)")
        } else {
            f.add("Advertising SID") { $0.appendHexNumber(advertisingSID, width: 2) }
        }
        f.add("TX power") { EventFormat.dBm(txPower, into: &$0) }
        f.add("RSSI") { EventFormat.dBm(rssi, into: &$0) }
        if periodicAdvertisingInterval == 0 {
            f.add("Periodic advertising interval", "none (0x0000)")
        } else {
            f.add("Periodic advertising interval", EventFormat.units1_25ms(periodicAdvertisingInterval))
        }
        f.add("Direct address type") { EventFormat.named(directAddressType.name, directAddressType.rawValue, into: &$0) }
        f.add("Direct address") { $0.appendAddress(wireOrder: directAddressBytes) }
        f.add("Data length") { $0.appendDecimal(data.count) }
        if !data.isEmpty {
            f.add("Data") { $0.appendSpacedHex(data) }
            f.nested("Advertising data") { AdvertisingData.describeFields(of: data, into: &$0) }
        }
    }
}
