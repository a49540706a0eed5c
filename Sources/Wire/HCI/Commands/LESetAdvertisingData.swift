/// The fixed 32-octet block shared by LE Set Advertising Data and LE Set Scan Response Data:
/// a length octet and 31 data octets, of which only `length` are significant.
enum LegacyAdvertisingDataBlock {
    static let dataOctets = 31

    static func decode(_ r: inout ByteReader, _ lengthField: StaticString, _ dataField: StaticString) throws(WireError) -> ArraySlice<UInt8> {
        let length = try r.u8(lengthField)
        guard Int(length) <= dataOctets else {
            throw WireError.invalidValue(field: lengthField.description, value: UInt64(length))
        }
        let block = try r.bytes(dataOctets, dataField)
        return block.prefix(Int(length))
    }

    /// Data beyond 31 octets cannot be sent with the legacy command and is cut.
    static func encode(_ data: ArraySlice<UInt8>, into w: inout ByteWriter) {
        let d = data.prefix(dataOctets)
        w.u8(UInt8(truncatingIfNeeded: d.count))
        w.append(d)
        for _ in d.count..<dataOctets { w.u8(0) }
    }
}

/// HCI_LE_Set_Advertising_Data (Core Spec v5.4 Vol 4, Part E, §7.8.7): the AD structures of
/// legacy advertising PDUs (at most 31 octets).
public struct LESetAdvertisingData: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetAdvertisingData

    /// The significant octets (Advertising_Data_Length of them), a slice of the input when decoded.
    public var advertisingData: ArraySlice<UInt8>

    public init(advertisingData: ArraySlice<UInt8>) { self.advertisingData = advertisingData }
    public init(advertisingData: [UInt8]) { self.init(advertisingData: advertisingData[...]) }

    public init(decoding r: inout ByteReader) throws(WireError) {
        advertisingData = try LegacyAdvertisingDataBlock.decode(&r, "Advertising_Data_Length", "Advertising_Data")
    }

    public func encode(into w: inout ByteWriter) {
        LegacyAdvertisingDataBlock.encode(advertisingData, into: &w)
    }

    public var summary: String { String(advertisingData.count) + " bytes" }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Length", String(advertisingData.count))
        fields.add("Data", Hex.spaced(advertisingData))
    }
}

/// HCI_LE_Set_Scan_Response_Data (Core Spec v5.4 Vol 4, Part E, §7.8.8): the AD structures of
/// the legacy scan response (at most 31 octets).
public struct LESetScanResponseData: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetScanResponseData

    /// The significant octets (Scan_Response_Data_Length of them).
    public var scanResponseData: ArraySlice<UInt8>

    public init(scanResponseData: ArraySlice<UInt8>) { self.scanResponseData = scanResponseData }
    public init(scanResponseData: [UInt8]) { self.init(scanResponseData: scanResponseData[...]) }

    public init(decoding r: inout ByteReader) throws(WireError) {
        scanResponseData = try LegacyAdvertisingDataBlock.decode(&r, "Scan_Response_Data_Length", "Scan_Response_Data")
    }

    public func encode(into w: inout ByteWriter) {
        LegacyAdvertisingDataBlock.encode(scanResponseData, into: &w)
    }

    public var summary: String { String(scanResponseData.count) + " bytes" }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Length", String(scanResponseData.count))
        fields.add("Data", Hex.spaced(scanResponseData))
    }
}

/// HCI_LE_Set_Advertising_Enable (Core Spec v5.4 Vol 4, Part E, §7.8.9).
public struct LESetAdvertisingEnable: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetAdvertisingEnable

    public var advertisingEnable: Bool

    public init(advertisingEnable: Bool) { self.advertisingEnable = advertisingEnable }

    public init(decoding r: inout ByteReader) throws(WireError) {
        advertisingEnable = try HCICommandFormat.readBool(&r, "Advertising_Enable")
    }

    public func encode(into w: inout ByteWriter) { w.u8(advertisingEnable ? 1 : 0) }

    public var summary: String { advertisingEnable ? "enable" : "disable" }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Advertising", HCICommandFormat.enabled(advertisingEnable))
    }
}
