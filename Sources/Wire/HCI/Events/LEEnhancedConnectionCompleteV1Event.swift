/// HCI_LE_Enhanced_Connection_Complete [v1] (Vol 4, Part E, §7.7.65.10): LE Connection
/// Complete plus the resolvable private addresses in use, sent instead of it when unmasked
/// (controllers with privacy or extended advertising).
public struct LEEnhancedConnectionCompleteV1Event: WireCodable, FieldDescribing, Hashable {
    /// Every field the legacy event has, so that one handler serves all three
    /// connection-complete events. A peer address type of 0x02/0x03 means the controller
    /// resolved the peer's private address to an identity.
    public var connectionComplete: LEConnectionCompleteEvent
    /// All zeros unless the local device used a resolvable private address.
    public var localResolvablePrivateAddress: BDAddress
    /// All zeros unless the peer address type is an identity type.
    public var peerResolvablePrivateAddress: BDAddress

    public init(status: HCIStatus = .success, connectionHandle: UInt16, role: LERole = .central,
                peerAddressType: LEAddressType, peerAddress: BDAddress,
                localResolvablePrivateAddress: BDAddress = .zero, peerResolvablePrivateAddress: BDAddress = .zero,
                connectionInterval: UInt16, peripheralLatency: UInt16 = 0, supervisionTimeout: UInt16,
                centralClockAccuracy: LEClockAccuracy = .ppm500) {
        connectionComplete = LEConnectionCompleteEvent(
            status: status, connectionHandle: connectionHandle, role: role, peerAddressType: peerAddressType,
            peerAddress: peerAddress, connectionInterval: connectionInterval, peripheralLatency: peripheralLatency,
            supervisionTimeout: supervisionTimeout, centralClockAccuracy: centralClockAccuracy)
        self.localResolvablePrivateAddress = localResolvablePrivateAddress
        self.peerResolvablePrivateAddress = peerResolvablePrivateAddress
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        let decoded = try LEConnectionCompleteEvent.decode(&r, privateAddresses: true)
        connectionComplete = decoded.event
        localResolvablePrivateAddress = decoded.local
        peerResolvablePrivateAddress = decoded.peer
    }

    public func encode(into w: inout ByteWriter) {
        connectionComplete.encode(into: &w, privateAddresses: (localResolvablePrivateAddress, peerResolvablePrivateAddress))
    }

    public var status: HCIStatus { connectionComplete.status }
    public var connectionHandle: UInt16 { connectionComplete.connectionHandle }
    public var role: LERole { connectionComplete.role }
    public var peerAddressType: LEAddressType { connectionComplete.peerAddressType }
    public var peerAddress: BDAddress { connectionComplete.peerAddress }
    /// The peer as a central connects to it again (its identity when it was resolved).
    public var peer: DeviceAddress { connectionComplete.peer }

    public var summary: String { connectionComplete.summary }

    public func describeFields(into f: inout FieldList) {
        connectionComplete.describeFields(
            into: &f, privateAddresses: (localResolvablePrivateAddress, peerResolvablePrivateAddress))
    }
}
