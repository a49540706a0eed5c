/// L2CAP_CONFIGURATION_RSP data (Core Spec v5.4 Vol 3, Part A, §4.5): the answer to a
/// Configuration Request on channel `sourceCID` (the requester's end); on failure the options
/// say which values were unacceptable, or which the responder would take instead.
public struct L2CAPConfigurationResponse: WireCodable, Hashable {
    public var sourceCID: L2CAPChannelID
    /// Bit 0: continuation.
    public var flags: UInt16
    public var result: L2CAPConfigurationResult
    public var options: [L2CAPConfigurationOption]

    public init(sourceCID: L2CAPChannelID, flags: UInt16 = 0, result: L2CAPConfigurationResult,
                options: [L2CAPConfigurationOption] = []) {
        self.sourceCID = sourceCID
        self.flags = flags
        self.result = result
        self.options = options
    }

    public var continues: Bool { flags & 0x0001 != 0 }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        sourceCID = L2CAPChannelID(try reader.u16("Source CID"))
        flags = try reader.u16("Flags")
        result = L2CAPConfigurationResult(try reader.u16("Result"))
        options = try L2CAPConfigurationOption.decodeAll(&reader)
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(sourceCID.rawValue)
        writer.u16(flags)
        writer.u16(result.rawValue)
        for o in options { o.encode(into: &writer) }
    }
}

/// Result of L2CAP_CONFIGURATION_RSP (Core Spec v5.4 Vol 3, Part A, §4.5).
public struct L2CAPConfigurationResult: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let success = L2CAPConfigurationResult(0x0000)
    public static let unacceptableParameters = L2CAPConfigurationResult(0x0001)
    public static let rejected = L2CAPConfigurationResult(0x0002)
    public static let unknownOptions = L2CAPConfigurationResult(0x0003)
    public static let pending = L2CAPConfigurationResult(0x0004)
    public static let flowSpecRejected = L2CAPConfigurationResult(0x0005)

    public var isSuccess: Bool { rawValue == 0 }

    public var name: String {
        switch rawValue {
        case 0x0000: return "Success"
        case 0x0001: return "Failure – unacceptable parameters"
        case 0x0002: return "Failure – rejected"
        case 0x0003: return "Failure – unknown options"
        case 0x0004: return "Pending"
        case 0x0005: return "Failure – flow spec rejected"
        default: return "Reserved"
        }
    }
}

extension L2CAPConfigurationResult: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
