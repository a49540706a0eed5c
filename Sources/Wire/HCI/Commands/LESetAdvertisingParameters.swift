/// HCI_LE_Set_Advertising_Parameters (Core Spec v5.4 Vol 4, Part E, §7.8.5): legacy
/// advertising. Intervals count 0.625 ms units.
public struct LESetAdvertisingParameters: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetAdvertisingParameters

    /// Advertising_Type: the legacy PDU the controller sends.
    public struct AdvertisingType: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let connectableUndirected = AdvertisingType(rawValue: 0x00)
        public static let connectableDirectedHighDuty = AdvertisingType(rawValue: 0x01)
        public static let scannableUndirected = AdvertisingType(rawValue: 0x02)
        public static let nonConnectableUndirected = AdvertisingType(rawValue: 0x03)
        public static let connectableDirectedLowDuty = AdvertisingType(rawValue: 0x04)

        public var name: String {
            switch rawValue {
            case 0x00: return "Connectable and scannable undirected (ADV_IND)"
            case 0x01: return "Connectable high duty cycle directed (ADV_DIRECT_IND)"
            case 0x02: return "Scannable undirected (ADV_SCAN_IND)"
            case 0x03: return "Non-connectable undirected (ADV_NONCONN_IND)"
            case 0x04: return "Connectable low duty cycle directed (ADV_DIRECT_IND)"
            default: return "Reserved"
            }
        }
    }

    /// Advertising_Channel_Map: which of the primary channels 37, 38, 39 to use.
    public struct ChannelMap: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let channel37 = ChannelMap(rawValue: 1 << 0)
        public static let channel38 = ChannelMap(rawValue: 1 << 1)
        public static let channel39 = ChannelMap(rawValue: 1 << 2)
        public static let all: ChannelMap = [.channel37, .channel38, .channel39]

        public var names: String {
            var parts: [String] = []
            if contains(.channel37) { parts.append("37") }
            if contains(.channel38) { parts.append("38") }
            if contains(.channel39) { parts.append("39") }
            return parts.isEmpty ? "none" : parts.joined(separator: ", ")
        }
    }

    /// Advertising_Filter_Policy: whose scan and connect requests are answered.
    public struct FilterPolicy: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let any = FilterPolicy(rawValue: 0x00)

        public var name: String {
            switch rawValue {
            case 0x00: return "Allow scan and connect requests from any device"
            case 0x01: return "Scan requests from the Filter Accept List only"
            case 0x02: return "Connect requests from the Filter Accept List only"
            case 0x03: return "Scan and connect requests from the Filter Accept List only"
            default: return "Reserved"
            }
        }
    }

    public var advertisingIntervalMin: UInt16
    public var advertisingIntervalMax: UInt16
    public var advertisingType: AdvertisingType
    public var ownAddressType: LEOwnAddressType
    /// Peer of directed advertising (0 public, 1 random).
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    public var advertisingChannelMap: ChannelMap
    public var advertisingFilterPolicy: FilterPolicy

    public init(advertisingIntervalMin: UInt16, advertisingIntervalMax: UInt16,
                advertisingType: AdvertisingType = .connectableUndirected,
                ownAddressType: LEOwnAddressType = .publicDevice,
                peerAddressType: LEAddressType = .publicDevice, peerAddress: BDAddress = .zero,
                advertisingChannelMap: ChannelMap = .all, advertisingFilterPolicy: FilterPolicy = .any) {
        self.advertisingIntervalMin = advertisingIntervalMin
        self.advertisingIntervalMax = advertisingIntervalMax
        self.advertisingType = advertisingType
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.advertisingChannelMap = advertisingChannelMap
        self.advertisingFilterPolicy = advertisingFilterPolicy
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        advertisingIntervalMin = try r.u16("Advertising_Interval_Min")
        advertisingIntervalMax = try r.u16("Advertising_Interval_Max")
        advertisingType = AdvertisingType(rawValue: try r.u8("Advertising_Type"))
        ownAddressType = LEOwnAddressType(rawValue: try r.u8("Own_Address_Type"))
        peerAddressType = try HCICommandFormat.readAddressType(&r, "Peer_Address_Type")
        peerAddress = try HCICommandFormat.readAddress(&r, "Peer_Address")
        advertisingChannelMap = ChannelMap(rawValue: try r.u8("Advertising_Channel_Map"))
        advertisingFilterPolicy = FilterPolicy(rawValue: try r.u8("Advertising_Filter_Policy"))
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(advertisingIntervalMin)
        w.u16(advertisingIntervalMax)
        w.u8(advertisingType.rawValue)
        w.u8(ownAddressType.rawValue)
        w.u8(peerAddressType.rawValue)
        w.append(peerAddress.bytes)
        w.u8(advertisingChannelMap.rawValue)
        w.u8(advertisingFilterPolicy.rawValue)
    }

    public var summary: String {
        "interval " + HCICommandFormat.milliseconds(Int(advertisingIntervalMin) * HCICommandFormat.unit0_625ms)
            + "–" + HCICommandFormat.milliseconds(Int(advertisingIntervalMax) * HCICommandFormat.unit0_625ms)
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Min advertising interval", HCICommandFormat.duration(advertisingIntervalMin, unitMicros: HCICommandFormat.unit0_625ms))
        fields.add("Max advertising interval", HCICommandFormat.duration(advertisingIntervalMax, unitMicros: HCICommandFormat.unit0_625ms))
        fields.add("Type", HCICommandFormat.named(advertisingType.name, advertisingType.rawValue))
        fields.add("Own address type", ownAddressType.description)
        fields.add("Direct address type", HCICommandFormat.addressType(peerAddressType))
        fields.add("Direct address", HCICommandFormat.address(peerAddress, random: peerAddressType.isRandom))
        fields.add("Channel map", HCICommandFormat.named(advertisingChannelMap.names, advertisingChannelMap.rawValue))
        fields.add("Filter policy", HCICommandFormat.named(advertisingFilterPolicy.name, advertisingFilterPolicy.rawValue))
    }
}
