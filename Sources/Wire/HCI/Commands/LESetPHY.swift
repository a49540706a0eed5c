/// HCI_LE_Set_PHY (Core Spec v5.4 Vol 4, Part E, §7.8.49): asks to move a link to other PHYs.
/// Answered with Command Status; LE PHY Update Complete follows (also when nothing changes).
public struct LESetPHY: HCICommand, Hashable {
    public typealias ReturnParameters = NoReturnParameters
    public static let opcode = HCIOpcode.leSetPHY
    public static let completesWithStatus = true

    /// All_PHYs: a set bit means "no preference" for that direction, and the matching
    /// TX_PHYs / RX_PHYs is ignored.
    public struct AllPHYs: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let noTXPreference = AllPHYs(rawValue: 1 << 0)
        public static let noRXPreference = AllPHYs(rawValue: 1 << 1)
    }

    /// PHY_Options: the coding the host prefers when transmitting on LE Coded.
    public struct PHYOptions: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let noPreferredCoding = PHYOptions(rawValue: 0x0000)
        public static let preferS2 = PHYOptions(rawValue: 0x0001)
        public static let preferS8 = PHYOptions(rawValue: 0x0002)

        public var name: String {
            switch rawValue {
            case 0x0000: return "No preferred coding"
            case 0x0001: return "Prefer S=2"
            case 0x0002: return "Prefer S=8"
            default: return "Reserved"
            }
        }
    }

    public var connectionHandle: UInt16
    public var allPHYs: AllPHYs
    public var txPHYs: LEPHYMask
    public var rxPHYs: LEPHYMask
    public var phyOptions: PHYOptions

    public init(connectionHandle: UInt16, allPHYs: AllPHYs = [], txPHYs: LEPHYMask, rxPHYs: LEPHYMask,
                phyOptions: PHYOptions = .noPreferredCoding) {
        self.connectionHandle = connectionHandle
        self.allPHYs = allPHYs
        self.txPHYs = txPHYs
        self.rxPHYs = rxPHYs
        self.phyOptions = phyOptions
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        connectionHandle = try r.u16("Connection_Handle")
        allPHYs = AllPHYs(rawValue: try r.u8("All_PHYs"))
        txPHYs = LEPHYMask(rawValue: try r.u8("TX_PHYs"))
        rxPHYs = LEPHYMask(rawValue: try r.u8("RX_PHYs"))
        phyOptions = PHYOptions(rawValue: try r.u16("PHY_Options"))
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8(allPHYs.rawValue)
        w.u8(txPHYs.rawValue)
        w.u8(rxPHYs.rawValue)
        w.u16(phyOptions.rawValue)
    }

    public var summary: String {
        "handle " + HCICommandFormat.handle(connectionHandle)
            + " TX " + (allPHYs.contains(.noTXPreference) ? "any" : txPHYs.names)
            + " RX " + (allPHYs.contains(.noRXPreference) ? "any" : rxPHYs.names)
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Handle", HCICommandFormat.handle(connectionHandle))
        var pref: [String] = []
        if allPHYs.contains(.noTXPreference) { pref.append("No TX preference") }
        if allPHYs.contains(.noRXPreference) { pref.append("No RX preference") }
        fields.add("All PHYs", HCICommandFormat.named(pref.isEmpty ? "TX and RX preferences given" : pref.joined(separator: ", "),
                                                     allPHYs.rawValue))
        fields.add("TX PHYs", txPHYs.description)
        fields.add("RX PHYs", rxPHYs.description)
        fields.add("PHY options", HCICommandFormat.named(phyOptions.name, phyOptions.rawValue))
    }
}
