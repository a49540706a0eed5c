/// Scanning_Filter_Policy (Core Spec v5.4 Vol 4, Part E, §7.8.10): which advertisements the
/// scanner reports. Values 2 and 3 also report directed advertisements whose target is an
/// unresolved resolvable private address (needs the Extended Scanner Filter Policies feature).
public struct LEScanningFilterPolicy: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let basicUnfiltered = LEScanningFilterPolicy(rawValue: 0x00)
    public static let basicFiltered = LEScanningFilterPolicy(rawValue: 0x01)
    public static let extendedUnfiltered = LEScanningFilterPolicy(rawValue: 0x02)
    public static let extendedFiltered = LEScanningFilterPolicy(rawValue: 0x03)

    public var name: String {
        switch rawValue {
        case 0x00: return "Accept all advertisements"
        case 0x01: return "Only devices in the Filter Accept List"
        case 0x02: return "Accept all advertisements, and directed to an unresolved RPA"
        case 0x03: return "Only devices in the Filter Accept List, and directed to an unresolved RPA"
        default: return "Reserved"
        }
    }

    public var description: String { HCICommandFormat.named(name, rawValue) }
}

/// Initiator_Filter_Policy (Core Spec v5.4 Vol 4, Part E, §7.8.12): connect to the one peer
/// named in the command, or to whichever device of the Filter Accept List advertises first.
public struct LEInitiatorFilterPolicy: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let peerAddress = LEInitiatorFilterPolicy(rawValue: 0x00)
    public static let filterAcceptList = LEInitiatorFilterPolicy(rawValue: 0x01)

    public var name: String {
        switch rawValue {
        case 0x00: return "Filter Accept List is not used"
        case 0x01: return "Filter Accept List is used"
        default: return "Reserved"
        }
    }

    public var description: String { HCICommandFormat.named(name, rawValue) }
}
