/// Parameters of ATT_PREPARE_WRITE_REQ and ATT_PREPARE_WRITE_RSP, which echo each other so the
/// client can check the server queued the right bytes (Core Spec v5.4 Vol 3, Part F, §3.4.6.1,
/// §3.4.6.2).
public struct ATTPrepareWrite: Sendable, Hashable {
    public var handle: UInt16
    public var valueOffset: UInt16
    public var partAttributeValue: ArraySlice<UInt8>

    public init(handle: UInt16, valueOffset: UInt16, partAttributeValue: ArraySlice<UInt8>) {
        self.handle = handle
        self.valueOffset = valueOffset
        self.partAttributeValue = partAttributeValue
    }
}
