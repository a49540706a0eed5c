/// HCI_LE_Directed_Advertising_Report (Vol 4, Part E, §7.7.65.11): directed advertising
/// aimed at a resolvable private address the controller could not resolve, reported only
/// with scanning filter policy 0x02/0x03 so that the host can try to resolve it.
public struct LEDirectedAdvertisingReportEvent: WireCodable, FieldDescribing, Hashable {
    public var reports: HCIEventArray<LEDirectedAdvertisingReport>

    /// Num_Reports.
    public var numReports: Int { reports.count }

    public init(reports: [LEDirectedAdvertisingReport]) {
        self.reports = HCIEventArray(reports)
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        let n = try r.u8("Num_Reports")
        reports = try HCIEventArray(count: Int(n), decoding: &r)
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(UInt8(truncatingIfNeeded: reports.count))
        reports.encode(into: &w)
    }

    public var summary: String {
        if reports.count == 1, let only = reports.first { return only.summary }
        return EventFormat.plural(reports.count, "report")
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Num reports", String(numReports))
        for (i, report) in reports.enumerated() {
            f.nested("Report " + String(i + 1)) { f in report.describeFields(into: &f) }
        }
    }
}

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
