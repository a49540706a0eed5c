/// Parameters of ATT_READ_BY_TYPE_REQ (§3.4.4.1) and ATT_READ_BY_GROUP_TYPE_REQ (§3.4.4.9),
/// which share a layout (Core Spec v5.4 Vol 3, Part F): a handle range and a 2- or 16-byte
/// attribute (group) type.
public struct ATTAttributeTypeQuery: Sendable, Hashable {
    public var range: ATTHandleRange
    /// Sent in its shortest ATT form (`attBytes`).
    public var attributeType: BluetoothUUID

    public init(range: ATTHandleRange, attributeType: BluetoothUUID) {
        self.range = range
        self.attributeType = attributeType
    }
}
