/// HCI_LE_Enhanced_Connection_Complete [v1] (Vol 4, Part E, §7.7.65.10): LE Connection
/// Complete plus the resolvable private addresses in use, sent instead of it when unmasked
/// (controllers with privacy or extended advertising).
public struct LEEnhancedConnectionCompleteV1Event: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var role: LERole
    /// 0x02/0x03 when the controller resolved the peer's private address to an identity.
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    /// All zeros unless the local device used a resolvable private address.
    public var localResolvablePrivateAddress: BDAddress
    /// All zeros unless `peerAddressType` is an identity type.
    public var peerResolvablePrivateAddress: BDAddress
    /// In units of 1.25 ms.
    public var connectionInterval: UInt16
    public var peripheralLatency: UInt16
    /// In units of 10 ms.
    public var supervisionTimeout: UInt16
    public var centralClockAccuracy: LEClockAccuracy

    public init(status: HCIStatus = .success, connectionHandle: UInt16, role: LERole = .central,
                peerAddressType: LEAddressType, peerAddress: BDAddress,
                localResolvablePrivateAddress: BDAddress = .zero, peerResolvablePrivateAddress: BDAddress = .zero,
                connectionInterval: UInt16, peripheralLatency: UInt16 = 0, supervisionTimeout: UInt16,
                centralClockAccuracy: LEClockAccuracy = .ppm500) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.localResolvablePrivateAddress = localResolvablePrivateAddress
        self.peerResolvablePrivateAddress = peerResolvablePrivateAddress
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = try r.eventStatus()
        connectionHandle = try r.eventConnectionHandle()
        role = LERole(rawValue: try r.u8("Role"))
        peerAddressType = try r.eventAddressType("Peer_Address_Type", lenient: !status.isSuccess)
        peerAddress = try r.eventAddress("Peer_Address")
        localResolvablePrivateAddress = try r.eventAddress("Local_Resolvable_Private_Address")
        peerResolvablePrivateAddress = try r.eventAddress("Peer_Resolvable_Private_Address")
        connectionInterval = try r.u16("Connection_Interval")
        peripheralLatency = try r.u16("Peripheral_Latency")
        supervisionTimeout = try r.u16("Supervision_Timeout")
        centralClockAccuracy = LEClockAccuracy(rawValue: try r.u8("Central_Clock_Accuracy"))
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(role.rawValue)
        w.u8(peerAddressType.rawValue)
        w.eventAddress(peerAddress)
        w.eventAddress(localResolvablePrivateAddress)
        w.eventAddress(peerResolvablePrivateAddress)
        w.u16(connectionInterval)
        w.u16(peripheralLatency)
        w.u16(supervisionTimeout)
        w.u8(centralClockAccuracy.rawValue)
    }

    /// The peer as a central connects to it again (its identity when it was resolved).
    public var peer: DeviceAddress { DeviceAddress(peerAddress, type: peerAddressType) }

    /// The same connection as the legacy event reports it, so that one handler serves all
    /// three connection-complete events.
    public var connectionComplete: LEConnectionCompleteEvent {
        LEConnectionCompleteEvent(status: status, connectionHandle: connectionHandle, role: role,
                                  peerAddressType: peerAddressType, peerAddress: peerAddress,
                                  connectionInterval: connectionInterval, peripheralLatency: peripheralLatency,
                                  supervisionTimeout: supervisionTimeout, centralClockAccuracy: centralClockAccuracy)
    }

    public var summary: String {
        LEConnectionText.summary(status: status, handle: connectionHandle, role: role, peer: peer,
                                 interval: connectionInterval)
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Status", statusText(status))
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("Role", role.description)
        f.add("Peer address type", EventFormat.named(peerAddressType.name, peerAddressType.rawValue))
        f.add("Peer address", LEConnectionText.address(peerAddress, peerAddressType))
        f.add("Local resolvable private address", localResolvablePrivateAddress.string)
        f.add("Peer resolvable private address", peerResolvablePrivateAddress.string)
        LEConnectionText.describeParameters(into: &f, interval: connectionInterval, latency: peripheralLatency,
                                            timeout: supervisionTimeout)
        f.add("Central clock accuracy", centralClockAccuracy.description)
    }
}
