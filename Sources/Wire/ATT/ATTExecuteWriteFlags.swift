/// Flags of ATT_EXECUTE_WRITE_REQ (Core Spec v5.4 Vol 3, Part F, §3.4.6.3). A raw value so a
/// reserved value from a peer still decodes and the server can answer it.
public struct ATTExecuteWriteFlags: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let cancelAllPreparedWrites = ATTExecuteWriteFlags(0x00)
    public static let immediatelyWriteAllPendingPreparedValues = ATTExecuteWriteFlags(0x01)

    public var name: String {
        switch rawValue {
        case 0x00: return "Cancel all prepared writes"
        case 0x01: return "Immediately write all pending prepared values"
        default: return "Reserved"
        }
    }
}

extension ATTExecuteWriteFlags: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
