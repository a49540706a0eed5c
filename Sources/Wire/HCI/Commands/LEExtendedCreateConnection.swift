/// HCI_LE_Extended_Create_Connection [v1] (Core Spec v5.4 Vol 4, Part E, §7.8.66): initiate a
/// connection scanning on one or more PHYs. One block of eight parameters follows for each bit
/// set in Initiating_PHYs, lowest bit first. Answered with Command Status, finished by
/// LE Enhanced Connection Complete (or LE Connection Complete on some controllers).
public struct LEExtendedCreateConnection: HCICommand, Hashable {
    public typealias ReturnParameters = NoReturnParameters
    public static let opcode = HCIOpcode.leExtendedCreateConnection
    public static let completesWithStatus = true

    /// Parameters for one initiating PHY. Units as in LE Create Connection: scan interval,
    /// window and CE lengths 0.625 ms, intervals 1.25 ms, supervision timeout 10 ms.
    public struct PHYParameters: Hashable, Sendable {
        /// A one-bit set: the PHY this block is for.
        public var phy: LEPHYMask
        public var scanInterval: UInt16
        public var scanWindow: UInt16
        public var connectionIntervalMin: UInt16
        public var connectionIntervalMax: UInt16
        public var maxLatency: UInt16
        public var supervisionTimeout: UInt16
        public var minCELength: UInt16
        public var maxCELength: UInt16

        public init(phy: LEPHYMask, scanInterval: UInt16, scanWindow: UInt16,
                    connectionIntervalMin: UInt16, connectionIntervalMax: UInt16,
                    maxLatency: UInt16, supervisionTimeout: UInt16,
                    minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
            self.phy = phy
            self.scanInterval = scanInterval
            self.scanWindow = scanWindow
            self.connectionIntervalMin = connectionIntervalMin
            self.connectionIntervalMax = connectionIntervalMax
            self.maxLatency = maxLatency
            self.supervisionTimeout = supervisionTimeout
            self.minCELength = minCELength
            self.maxCELength = maxCELength
        }
    }

    public var initiatorFilterPolicy: LEInitiatorFilterPolicy
    public var ownAddressType: LEOwnAddressType
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    /// One block per PHY, in ascending PHY bit order; `initiatingPHYs` is derived from them.
    public var phys: [PHYParameters]

    public init(initiatorFilterPolicy: LEInitiatorFilterPolicy = .peerAddress,
                ownAddressType: LEOwnAddressType = .publicDevice,
                peerAddressType: LEAddressType, peerAddress: BDAddress,
                phys: [PHYParameters]) {
        self.initiatorFilterPolicy = initiatorFilterPolicy
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.phys = phys
    }

    /// Initiating_PHYs: the union of the blocks' PHYs.
    public var initiatingPHYs: LEPHYMask {
        phys.reduce(into: LEPHYMask()) { $0.formUnion($1.phy) }
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        initiatorFilterPolicy = LEInitiatorFilterPolicy(rawValue: try r.u8("Initiator_Filter_Policy"))
        ownAddressType = LEOwnAddressType(rawValue: try r.u8("Own_Address_Type"))
        peerAddressType = try HCICommandFormat.readAddressType(&r, "Peer_Address_Type")
        peerAddress = try HCICommandFormat.readAddress(&r, "Peer_Address")
        let mask = LEPHYMask(rawValue: try r.u8("Initiating_PHYs"))
        var blocks: [PHYParameters] = []
        blocks.reserveCapacity(mask.count)
        for phy in mask.elements {
            let scanInterval = try r.u16("Scan_Interval")
            let scanWindow = try r.u16("Scan_Window")
            let intervalMin = try r.u16("Connection_Interval_Min")
            let intervalMax = try r.u16("Connection_Interval_Max")
            let latency = try r.u16("Max_Latency")
            let timeout = try r.u16("Supervision_Timeout")
            let minCE = try r.u16("Min_CE_Length")
            let maxCE = try r.u16("Max_CE_Length")
            blocks.append(PHYParameters(phy: phy, scanInterval: scanInterval, scanWindow: scanWindow,
                                        connectionIntervalMin: intervalMin, connectionIntervalMax: intervalMax,
                                        maxLatency: latency, supervisionTimeout: timeout,
                                        minCELength: minCE, maxCELength: maxCE))
        }
        phys = blocks
    }

    /// Blocks are written in ascending PHY order whatever order they were given in.
    public func encode(into w: inout ByteWriter) {
        w.u8(initiatorFilterPolicy.rawValue)
        w.u8(ownAddressType.rawValue)
        w.u8(peerAddressType.rawValue)
        w.append(peerAddress.bytes)
        w.u8(initiatingPHYs.rawValue)
        for b in phys.sorted(by: { $0.phy.rawValue < $1.phy.rawValue }) {
            w.u16(b.scanInterval)
            w.u16(b.scanWindow)
            w.u16(b.connectionIntervalMin)
            w.u16(b.connectionIntervalMax)
            w.u16(b.maxLatency)
            w.u16(b.supervisionTimeout)
            w.u16(b.minCELength)
            w.u16(b.maxCELength)
        }
    }

    public var summary: String {
        (initiatorFilterPolicy == .filterAcceptList ? "filter accept list"
            : DeviceAddress(peerAddress, type: peerAddressType).description) + " on " + initiatingPHYs.names
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Filter policy", initiatorFilterPolicy.description)
        fields.add("Own address type", ownAddressType.description)
        fields.add("Peer address type", HCICommandFormat.addressType(peerAddressType))
        fields.add("Peer address", HCICommandFormat.address(peerAddress, random: peerAddressType.isRandom))
        fields.add("Initiating PHYs", initiatingPHYs.description)
        for b in phys {
            fields.nested("Entry", b.phy.names) { f in
                f.add("Scan interval", HCICommandFormat.duration(b.scanInterval, unitMicros: HCICommandFormat.unit0_625ms))
                f.add("Scan window", HCICommandFormat.duration(b.scanWindow, unitMicros: HCICommandFormat.unit0_625ms))
                HCICommandFormat.describeConnectionParameters(
                    into: &f, intervalMin: b.connectionIntervalMin, intervalMax: b.connectionIntervalMax,
                    latency: b.maxLatency, supervisionTimeout: b.supervisionTimeout,
                    minCELength: b.minCELength, maxCELength: b.maxCELength)
            }
        }
    }
}
