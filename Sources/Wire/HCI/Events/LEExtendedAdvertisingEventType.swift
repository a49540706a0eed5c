/// Event_Type bits of an extended advertising report (Vol 4, Part E, §7.7.65.13).
/// Bits 5–6 are not flags but the two-bit data status; see `dataStatus`.
public struct LEExtendedAdvertisingEventType: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let connectable = LEExtendedAdvertisingEventType(rawValue: 1 << 0)
    public static let scannable = LEExtendedAdvertisingEventType(rawValue: 1 << 1)
    public static let directed = LEExtendedAdvertisingEventType(rawValue: 1 << 2)
    public static let scanResponse = LEExtendedAdvertisingEventType(rawValue: 1 << 3)
    public static let legacy = LEExtendedAdvertisingEventType(rawValue: 1 << 4)

    /// The values a legacy PDU is reported with (Vol 4, Part E, §7.7.65.13, table of legacy
    /// event types).
    public static let legacyAdvInd: LEExtendedAdvertisingEventType = [.legacy, .connectable, .scannable]
    public static let legacyAdvDirectInd: LEExtendedAdvertisingEventType = [.legacy, .connectable, .directed]
    public static let legacyAdvScanInd: LEExtendedAdvertisingEventType = [.legacy, .scannable]
    public static let legacyAdvNonconnInd: LEExtendedAdvertisingEventType = [.legacy]
    public static let legacyScanRspToAdvInd: LEExtendedAdvertisingEventType = [.legacy, .scanResponse, .connectable, .scannable]
    public static let legacyScanRspToAdvScanInd: LEExtendedAdvertisingEventType = [.legacy, .scanResponse, .scannable]

    /// Whether the report carries all of the advertiser's data or a part of it.
    public enum DataStatus: UInt8, Sendable, Hashable {
        case complete = 0
        /// More reports with the rest of the data follow.
        case incomplete = 1
        /// The data was cut and no more will come.
        case truncated = 2
        case reserved = 3

        public var name: String {
            switch self {
            case .complete: return "complete"
            case .incomplete: return "incomplete, more data to come"
            case .truncated: return "incomplete, data truncated"
            case .reserved: return "reserved"
            }
        }
    }

    public var dataStatus: DataStatus {
        DataStatus(rawValue: UInt8(truncatingIfNeeded: (rawValue >> 5) & 0x3)) ?? .reserved
    }

    /// This type with `dataStatus` replaced.
    public func with(dataStatus: DataStatus) -> LEExtendedAdvertisingEventType {
        LEExtendedAdvertisingEventType(rawValue: (rawValue & ~0x0060) | UInt16(dataStatus.rawValue) << 5)
    }

    /// The legacy PDU this report stands for, when the legacy bit is set and the bits form
    /// one of the allowed combinations; both kinds of scan response give `.scanRsp`.
    public var legacyEventType: LEAdvertisingEventType? {
        guard contains(.legacy) else { return nil }
        switch LEExtendedAdvertisingEventType(rawValue: rawValue & 0x001F) {
        case .legacyAdvInd: return .advInd
        case .legacyAdvDirectInd: return .advDirectInd
        case .legacyAdvScanInd: return .advScanInd
        case .legacyAdvNonconnInd: return .advNonconnInd
        case .legacyScanRspToAdvInd, .legacyScanRspToAdvScanInd: return .scanRsp
        default: return nil
        }
    }

    /// Set bits by name, the legacy PDU where there is one, and the data status, e.g.
    /// `connectable, scannable, legacy (ADV_IND), complete`.
    public var name: String {
        var parts: [String] = []
        if contains(.connectable) { parts.append("connectable") }
        if contains(.scannable) { parts.append("scannable") }
        if contains(.directed) { parts.append("directed") }
        if contains(.scanResponse) { parts.append("scan response") }
        if contains(.legacy) {
            parts.append("legacy" + (legacyEventType.map { " (" + $0.name + ")" } ?? ""))
        }
        parts.append(dataStatus.name)
        if rawValue & 0xFF80 != 0 { parts.append("reserved bits " + EventFormat.hex16(rawValue & 0xFF80)) }
        return parts.joined(separator: ", ")
    }

    public var description: String { name + " (" + EventFormat.hex16(rawValue) + ")" }

    /// `description`, written into the buffer without a `String` per part.
    func appendDescription(to t: inout TextBuffer) {
        var first = true
        func part(_ s: StaticString) {
            if !first { t.append(", ") }
            first = false
            t.append(s)
        }
        if contains(.connectable) { part("connectable") }
        if contains(.scannable) { part("scannable") }
        if contains(.directed) { part("directed") }
        if contains(.scanResponse) { part("scan response") }
        if contains(.legacy) {
            part("legacy")
            if let legacy = legacyEventType {
                t.append(" (")
                t.append(legacy.name)
                t.append(byte: 0x29)
            }
        }
        if !first { t.append(", ") }
        t.append(dataStatus.name)
        if rawValue & 0xFF80 != 0 {
            t.append(", reserved bits ")
            t.append(EventFormat.hex16(rawValue & 0xFF80))
        }
        t.appendParenthesizedHexNumber(rawValue, width: 4)
    }
}
