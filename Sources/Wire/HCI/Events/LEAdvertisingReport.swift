/// One report of an LE Advertising Report event.
public struct LEAdvertisingReport: WireCodable, FieldDescribing, Hashable {
    public var eventType: LEAdvertisingEventType
    public var addressType: LEAddressType
    /// The address bytes in wire order, a slice of the event (making a `BDAddress` allocates).
    public private(set) var addressBytes: ArraySlice<UInt8>
    /// Advertising or scan response data: AD structures (Vol 3, Part C, §11), unparsed.
    public var data: ArraySlice<UInt8>
    /// dBm; 127 means not available.
    public var rssi: Int8

    public init(eventType: LEAdvertisingEventType, addressType: LEAddressType, address: BDAddress,
                data: ArraySlice<UInt8>, rssi: Int8) {
        self.eventType = eventType
        self.addressType = addressType
        self.addressBytes = address.bytes[...]
        self.data = data
        self.rssi = rssi
    }

    public init(eventType: LEAdvertisingEventType, addressType: LEAddressType, address: BDAddress,
                data: [UInt8], rssi: Int8) {
        self.init(eventType: eventType, addressType: addressType, address: address, data: data[...], rssi: rssi)
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        if let whole = Self.decodeWhole(&r) {
            self = whole
            return
        }
        eventType = LEAdvertisingEventType(rawValue: try r.u8("Event_Type"))
        addressType = try r.eventAddressType("Address_Type")
        addressBytes = try r.bytes(6, "Address")
        let length = try r.u8("Data_Length")
        data = try r.bytes(Int(length), "Data")
        rssi = try r.i8("RSSI")
    }

    private init(eventType: LEAdvertisingEventType, addressType: LEAddressType, addressBytes: ArraySlice<UInt8>,
                 data: ArraySlice<UInt8>, rssi: Int8) {
        self.eventType = eventType
        self.addressType = addressType
        self.addressBytes = addressBytes
        self.data = data
        self.rssi = rssi
    }

    /// The report at `r` when all of it is there and its address type is valid, taken with one
    /// bounds check instead of one per field (a shown report is decoded three times: when the
    /// event is, for its headline and for its fields). Nil, `r` untouched, sends the caller
    /// down the field-by-field path, which names what is wrong.
    private static func decodeWhole(_ r: inout ByteReader) -> LEAdvertisingReport? {
        let b = r.remaining
        let s = b.startIndex
        // Event_Type, Address_Type, Address (6), Data_Length, Data, RSSI.
        guard b.count >= 10 else { return nil }
        let length = Int(b[s + 8])
        guard b.count >= 10 + length, let addressType = LEAddressType(rawValue: b[s + 1]),
              (try? r.skip(10 + length)) != nil else { return nil }
        return LEAdvertisingReport(eventType: LEAdvertisingEventType(rawValue: b[s]), addressType: addressType,
                                   addressBytes: b[(s + 2)..<(s + 8)], data: b[(s + 9)..<(s + 9 + length)],
                                   rssi: Int8(bitPattern: b[s + 9 + length]))
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(eventType.rawValue)
        w.u8(addressType.rawValue)
        w.eventAddressBytes(addressBytes)
        w.eventLengthPrefixed(data)
        w.i8(rssi)
    }

    public var address: BDAddress {
        get { BDAddress.fromChecked(addressBytes) }
        set { addressBytes = newValue.bytes[...] }
    }

    /// The advertiser as a central would connect to it.
    public var advertiser: DeviceAddress { DeviceAddress(address, type: addressType) }

    public var summary: String {
        var t = TextBuffer()
        appendSummary(to: &t)
        return t.string
    }

    public func appendSummary(to t: inout TextBuffer) {
        t.append(eventType.name)
        t.append(byte: 0x20)
        t.appendAddress(wireOrder: addressBytes)
        t.append(addressType.isRandom ? "/random " : "/public ")
        EventFormat.dBmShort(rssi, into: &t)
        t.append(" data ")
        t.appendDecimal(data.count)
        t.append(data.count == 1 ? " byte" : " bytes")
        if let name = AdvertisingData.localName(in: data) {
            t.append(byte: 0x20)
            appendQuoted(name, to: &t)
        }
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Event type") { EventFormat.named(eventType.name, eventType.rawValue, into: &$0) }
        f.add("Address type") { EventFormat.named(addressType.name, addressType.rawValue, into: &$0) }
        f.add("Address") { $0.appendAddressWithKind(wireOrder: addressBytes, addressType) }
        f.add("Data length") { $0.appendDecimal(data.count) }
        if !data.isEmpty {
            f.add("Data") { $0.appendSpacedHex(data) }
            f.nested("Advertising data") { AdvertisingData.describeFields(of: data, into: &$0) }
        }
        f.add("RSSI") { EventFormat.dBm(rssi, into: &$0) }
    }
}
