/// HCI_LE_Create_Connection (Core Spec v5.4 Vol 4, Part E, §7.8.12): initiate a connection on
/// LE 1M. The controller answers Command Status at once and LE (Enhanced) Connection Complete
/// when the link is up, fails, or the attempt is cancelled.
///
/// Units: scan interval/window and CE lengths 0.625 ms, connection intervals 1.25 ms,
/// supervision timeout 10 ms, latency in connection events.
public struct LECreateConnection: HCICommand, Hashable {
    public typealias ReturnParameters = NoReturnParameters
    public static let opcode = HCIOpcode.leCreateConnection
    public static let completesWithStatus = true

    public var scanInterval: UInt16
    public var scanWindow: UInt16
    public var initiatorFilterPolicy: LEInitiatorFilterPolicy
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    public var ownAddressType: LEOwnAddressType
    public var connectionIntervalMin: UInt16
    public var connectionIntervalMax: UInt16
    public var maxLatency: UInt16
    public var supervisionTimeout: UInt16
    public var minCELength: UInt16
    public var maxCELength: UInt16

    public init(scanInterval: UInt16, scanWindow: UInt16,
                initiatorFilterPolicy: LEInitiatorFilterPolicy = .peerAddress,
                peerAddressType: LEAddressType, peerAddress: BDAddress,
                ownAddressType: LEOwnAddressType = .publicDevice,
                connectionIntervalMin: UInt16, connectionIntervalMax: UInt16,
                maxLatency: UInt16, supervisionTimeout: UInt16,
                minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.initiatorFilterPolicy = initiatorFilterPolicy
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.ownAddressType = ownAddressType
        self.connectionIntervalMin = connectionIntervalMin
        self.connectionIntervalMax = connectionIntervalMax
        self.maxLatency = maxLatency
        self.supervisionTimeout = supervisionTimeout
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        scanInterval = try r.u16("LE_Scan_Interval")
        scanWindow = try r.u16("LE_Scan_Window")
        initiatorFilterPolicy = LEInitiatorFilterPolicy(rawValue: try r.u8("Initiator_Filter_Policy"))
        peerAddressType = try HCICommandFormat.readAddressType(&r, "Peer_Address_Type")
        peerAddress = try HCICommandFormat.readAddress(&r, "Peer_Address")
        ownAddressType = LEOwnAddressType(rawValue: try r.u8("Own_Address_Type"))
        connectionIntervalMin = try r.u16("Connection_Interval_Min")
        connectionIntervalMax = try r.u16("Connection_Interval_Max")
        maxLatency = try r.u16("Max_Latency")
        supervisionTimeout = try r.u16("Supervision_Timeout")
        minCELength = try r.u16("Min_CE_Length")
        maxCELength = try r.u16("Max_CE_Length")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(scanInterval)
        w.u16(scanWindow)
        w.u8(initiatorFilterPolicy.rawValue)
        w.u8(peerAddressType.rawValue)
        w.append(peerAddress.bytes)
        w.u8(ownAddressType.rawValue)
        w.u16(connectionIntervalMin)
        w.u16(connectionIntervalMax)
        w.u16(maxLatency)
        w.u16(supervisionTimeout)
        w.u16(minCELength)
        w.u16(maxCELength)
    }

    public var summary: String {
        (initiatorFilterPolicy == .filterAcceptList ? "filter accept list"
            : DeviceAddress(peerAddress, type: peerAddressType).description)
            + " interval " + HCICommandFormat.milliseconds(Int(connectionIntervalMin) * HCICommandFormat.unit1_25ms)
            + "–" + HCICommandFormat.milliseconds(Int(connectionIntervalMax) * HCICommandFormat.unit1_25ms)
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Scan interval", HCICommandFormat.duration(scanInterval, unitMicros: HCICommandFormat.unit0_625ms))
        fields.add("Scan window", HCICommandFormat.duration(scanWindow, unitMicros: HCICommandFormat.unit0_625ms))
        fields.add("Filter policy", initiatorFilterPolicy.description)
        fields.add("Peer address type", HCICommandFormat.addressType(peerAddressType))
        fields.add("Peer address", HCICommandFormat.address(peerAddress, random: peerAddressType.isRandom))
        fields.add("Own address type", ownAddressType.description)
        HCICommandFormat.describeConnectionParameters(
            into: &fields, intervalMin: connectionIntervalMin, intervalMax: connectionIntervalMax,
            latency: maxLatency, supervisionTimeout: supervisionTimeout,
            minCELength: minCELength, maxCELength: maxCELength)
    }
}

/// HCI_LE_Create_Connection_Cancel (Core Spec v5.4 Vol 4, Part E, §7.8.13): stops a pending
/// LE Create Connection; the controller then reports LE Connection Complete with status
/// Unknown Connection Identifier (0x02), unless the link came up first.
public struct LECreateConnectionCancel: HCICommandWithoutParameters, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leCreateConnectionCancel
    public init() {}
}
