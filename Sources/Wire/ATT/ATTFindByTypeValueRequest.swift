/// ATT_FIND_BY_TYPE_VALUE_REQ parameters (Core Spec v5.4 Vol 3, Part F, §3.4.3.3). The
/// Attribute Type is always a 16-bit UUID on the wire (GATT uses it to find a primary service
/// by UUID: type 0x2800, value the service UUID).
public struct ATTFindByTypeValueRequest: Sendable, Hashable {
    public var range: ATTHandleRange
    /// Only the 16-bit alias is sent.
    public var attributeType: BluetoothUUID
    public var attributeValue: ArraySlice<UInt8>

    public init(range: ATTHandleRange, attributeType: BluetoothUUID, attributeValue: ArraySlice<UInt8>) {
        self.range = range
        self.attributeType = attributeType
        self.attributeValue = attributeValue
    }
}

/// One entry of ATT_FIND_BY_TYPE_VALUE_RSP (§3.4.3.4): the attribute found and the last handle
/// of its group (the service's end).
public struct ATTHandlesInformation: Sendable, Hashable {
    public var foundAttributeHandle: UInt16
    public var groupEndHandle: UInt16

    public init(foundAttributeHandle: UInt16, groupEndHandle: UInt16) {
        self.foundAttributeHandle = foundAttributeHandle
        self.groupEndHandle = groupEndHandle
    }
}
