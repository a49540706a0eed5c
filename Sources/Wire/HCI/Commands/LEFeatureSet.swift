/// The LE feature bits of the Link Layer (Core Spec v5.4 Vol 6, Part B, §4.6), as returned by
/// LE Read Local Supported Features and carried by LE Read Remote Features Complete.
public struct LEFeatureSet: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let leEncryption = LEFeatureSet(rawValue: 1 << 0)
    public static let connectionParametersRequestProcedure = LEFeatureSet(rawValue: 1 << 1)
    public static let extendedRejectIndication = LEFeatureSet(rawValue: 1 << 2)
    public static let peripheralInitiatedFeaturesExchange = LEFeatureSet(rawValue: 1 << 3)
    public static let lePing = LEFeatureSet(rawValue: 1 << 4)
    public static let leDataPacketLengthExtension = LEFeatureSet(rawValue: 1 << 5)
    public static let llPrivacy = LEFeatureSet(rawValue: 1 << 6)
    public static let extendedScannerFilterPolicies = LEFeatureSet(rawValue: 1 << 7)
    public static let le2MPHY = LEFeatureSet(rawValue: 1 << 8)
    public static let leCodedPHY = LEFeatureSet(rawValue: 1 << 11)
    public static let leExtendedAdvertising = LEFeatureSet(rawValue: 1 << 12)
    public static let lePeriodicAdvertising = LEFeatureSet(rawValue: 1 << 13)
    public static let channelSelectionAlgorithm2 = LEFeatureSet(rawValue: 1 << 14)
    public static let lePowerClass1 = LEFeatureSet(rawValue: 1 << 15)
    public static let connectionSubrating = LEFeatureSet(rawValue: 1 << 37)

    /// Spec name of feature bit `bit`, nil for bits this table does not know.
    public static func name(ofBit bit: Int) -> String? {
        switch bit {
        case 0: return "LE Encryption"
        case 1: return "Connection Parameters Request Procedure"
        case 2: return "Extended Reject Indication"
        case 3: return "Peripheral-initiated Features Exchange"
        case 4: return "LE Ping"
        case 5: return "LE Data Packet Length Extension"
        case 6: return "LL Privacy"
        case 7: return "Extended Scanner Filter Policies"
        case 8: return "LE 2M PHY"
        case 9: return "Stable Modulation Index - Transmitter"
        case 10: return "Stable Modulation Index - Receiver"
        case 11: return "LE Coded PHY"
        case 12: return "LE Extended Advertising"
        case 13: return "LE Periodic Advertising"
        case 14: return "Channel Selection Algorithm #2"
        case 15: return "LE Power Class 1"
        case 16: return "Minimum Number of Used Channels Procedure"
        case 17: return "Connection CTE Request"
        case 18: return "Connection CTE Response"
        case 19: return "Connectionless CTE Transmitter"
        case 20: return "Connectionless CTE Receiver"
        case 21: return "Antenna Switching During CTE Transmission (AoD)"
        case 22: return "Antenna Switching During CTE Reception (AoA)"
        case 23: return "Receiving Constant Tone Extensions"
        case 24: return "Periodic Advertising Sync Transfer - Sender"
        case 25: return "Periodic Advertising Sync Transfer - Recipient"
        case 26: return "Sleep Clock Accuracy Updates"
        case 27: return "Remote Public Key Validation"
        case 28: return "Connected Isochronous Stream - Central"
        case 29: return "Connected Isochronous Stream - Peripheral"
        case 30: return "Isochronous Broadcaster"
        case 31: return "Synchronized Receiver"
        case 32: return "Connected Isochronous Stream (Host Support)"
        case 33: return "LE Power Control Request"
        case 34: return "LE Power Control Request"
        case 35: return "LE Path Loss Monitoring"
        case 36: return "Periodic Advertising ADI support"
        case 37: return "Connection Subrating"
        case 38: return "Connection Subrating (Host Support)"
        case 39: return "Channel Classification"
        case 40: return "Advertising Coding Selection"
        case 41: return "Advertising Coding Selection (Host Support)"
        case 43: return "Periodic Advertising with Responses - Advertiser"
        case 44: return "Periodic Advertising with Responses - Scanner"
        default: return nil
        }
    }

    /// Indices of the set bits, lowest first.
    public var bits: [Int] {
        (0..<64).filter { rawValue & (1 << UInt64($0)) != 0 }
    }

    /// Names of the set bits, lowest first; unknown bits as `bit 42`.
    public var names: [String] {
        bits.map { LEFeatureSet.name(ofBit: $0) ?? "bit " + String($0) }
    }

    /// Adds the mask in hex and one `bit N: name` line per set feature.
    public func describe(into fields: inout FieldList, label: String = "Features") {
        let set = bits
        fields.nested(label, HCICommandFormat.hex(rawValue)) { f in
            for b in set { f.add("bit " + String(b), LEFeatureSet.name(ofBit: b) ?? "reserved") }
        }
    }
}

/// HCI_LE_Read_Local_Supported_Features (Core Spec v5.4 Vol 4, Part E, §7.8.3).
public struct LEReadLocalSupportedFeatures: HCICommandWithoutParameters, Hashable {
    public static let opcode = HCIOpcode.leReadLocalSupportedFeatures
    public init() {}

    /// When the status is not success and the controller sent only the status, `leFeatures` is
    /// empty and `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var leFeatures: LEFeatureSet
        public var isStatusOnly: Bool

        public init(status: HCIStatus = .success, leFeatures: LEFeatureSet) {
            self.status = status
            self.leFeatures = leFeatures
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            leFeatures = []
            isStatusOnly = !status.isSuccess && r.count < 8
            if isStatusOnly { return }
            leFeatures = LEFeatureSet(rawValue: try r.u64("LE_Features"))
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            w.u64(leFeatures.rawValue)
        }

        public var summary: String {
            isStatusOnly ? status.description : "features " + HCICommandFormat.hex(leFeatures.rawValue)
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            leFeatures.describe(into: &fields)
        }
    }
}
