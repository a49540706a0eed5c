import Wire

/// What bring-up learned about the controller; shown by `rtstack info`.
public struct ControllerInfo: Sendable {
    public var hciVersion: UInt8 = 0
    public var hciSubversion: UInt16 = 0
    public var lmpVersion: UInt8 = 0
    public var manufacturer: UInt16 = 0
    public var lmpSubversion: UInt16 = 0
    public var publicAddress: BDAddress = .zero
    /// The address the host uses in its LE commands (random static unless told otherwise).
    public var ownAddress: DeviceAddress = DeviceAddress(.zero, type: .publicDevice)
    public var supportedCommands: [UInt8] = []
    public var lmpFeatures: UInt64 = 0
    public var leFeatures: UInt64 = 0
    public var leStates: UInt64 = 0
    public var aclDataLength: Int = 0
    public var aclPacketCount: Int = 0
    public var filterAcceptListSize: Int = 0

    public init() {}

    /// Supported Commands bit test (Core Spec Vol 4, Part E, §6.27: octet, bit).
    public func supports(octet: Int, bit: Int) -> Bool {
        guard octet >= 0, octet < supportedCommands.count, bit >= 0, bit < 8 else { return false }
        return supportedCommands[octet] & (1 << UInt8(bit)) != 0
    }

    /// LE Extended Advertising feature (Vol 6, Part B, §4.6, bit 12).
    public var supportsExtendedAdvertising: Bool { leFeatures & (1 << 12) != 0 }
}

/// Connection facts from LE (Enhanced) Connection Complete.
public struct ConnectionInfo: Sendable, Hashable {
    public var handle: UInt16
    public var peer: DeviceAddress
    /// Units of 1.25 ms.
    public var interval: UInt16
    public var latency: UInt16
    /// Units of 10 ms.
    public var supervisionTimeout: UInt16

    public init(handle: UInt16, peer: DeviceAddress, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.handle = handle
        self.peer = peer
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }
}
