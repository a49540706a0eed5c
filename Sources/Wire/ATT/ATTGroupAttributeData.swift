/// One entry of the Attribute Data List of ATT_READ_BY_GROUP_TYPE_RSP (Core Spec v5.4 Vol 3,
/// Part F, §3.4.4.10): a group's first and last handle and the group attribute's value (for a
/// service: its UUID).
public struct ATTGroupAttributeData: Sendable, Hashable {
    public var attributeHandle: UInt16
    public var endGroupHandle: UInt16
    public var value: ArraySlice<UInt8>

    public init(attributeHandle: UInt16, endGroupHandle: UInt16, value: ArraySlice<UInt8>) {
        self.attributeHandle = attributeHandle
        self.endGroupHandle = endGroupHandle
        self.value = value
    }

    public init(attributeHandle: UInt16, endGroupHandle: UInt16, value: [UInt8]) {
        self.init(attributeHandle: attributeHandle, endGroupHandle: endGroupHandle, value: value[...])
    }
}
