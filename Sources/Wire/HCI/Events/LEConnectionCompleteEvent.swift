/// HCI_LE_Connection_Complete (Vol 4, Part E, §7.7.65.1): a connection was made, or the
/// attempt failed or was cancelled (then only Status means anything).
public struct LEConnectionCompleteEvent: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var role: LERole
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    /// In units of 1.25 ms.
    public var connectionInterval: UInt16
    /// Connection events the peripheral may skip.
    public var peripheralLatency: UInt16
    /// In units of 10 ms.
    public var supervisionTimeout: UInt16
    public var centralClockAccuracy: LEClockAccuracy

    public init(status: HCIStatus = .success, connectionHandle: UInt16, role: LERole = .central,
                peerAddressType: LEAddressType, peerAddress: BDAddress, connectionInterval: UInt16,
                peripheralLatency: UInt16 = 0, supervisionTimeout: UInt16,
                centralClockAccuracy: LEClockAccuracy = .ppm500) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        self = try Self.decode(&r, privateAddresses: false).event
    }

    /// The event's fields, with the two resolvable private addresses the enhanced event puts
    /// after Peer_Address read there when `privateAddresses` (§7.7.65.10): one decoder for
    /// both layouts.
    static func decode(_ r: inout ByteReader, privateAddresses: Bool) throws(WireError)
        -> (event: LEConnectionCompleteEvent, local: BDAddress, peer: BDAddress) {
        let status = try r.eventStatus()
        let handle = try r.eventConnectionHandle()
        let role = LERole(rawValue: try r.u8("Role"))
        let peerAddressType = try r.eventAddressType("Peer_Address_Type", lenient: !status.isSuccess)
        let peerAddress = try r.eventAddress("Peer_Address")
        var local = BDAddress.zero
        var peerPrivate = BDAddress.zero
        if privateAddresses {
            local = try r.eventAddress("Local_Resolvable_Private_Address")
            peerPrivate = try r.eventAddress("Peer_Resolvable_Private_Address")
        }
        let event = LEConnectionCompleteEvent(
            status: status, connectionHandle: handle, role: role, peerAddressType: peerAddressType,
            peerAddress: peerAddress, connectionInterval: try r.u16("Connection_Interval"),
            peripheralLatency: try r.u16("Peripheral_Latency"), supervisionTimeout: try r.u16("Supervision_Timeout"),
            centralClockAccuracy: LEClockAccuracy(rawValue: try r.u8("Central_Clock_Accuracy")))
        return (event, local, peerPrivate)
    }

    public func encode(into w: inout ByteWriter) {
        encode(into: &w, privateAddresses: nil)
    }

    func encode(into w: inout ByteWriter, privateAddresses: (local: BDAddress, peer: BDAddress)?) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(role.rawValue)
        w.u8(peerAddressType.rawValue)
        w.eventAddress(peerAddress)
        if let privateAddresses {
            w.eventAddress(privateAddresses.local)
            w.eventAddress(privateAddresses.peer)
        }
        w.u16(connectionInterval)
        w.u16(peripheralLatency)
        w.u16(supervisionTimeout)
        w.u8(centralClockAccuracy.rawValue)
    }

    /// The peer as a central connects to it again.
    public var peer: DeviceAddress { DeviceAddress(peerAddress, type: peerAddressType) }

    public var summary: String {
        LEConnectionText.summary(status: status, handle: connectionHandle, role: role, peer: peer,
                                 interval: connectionInterval)
    }

    public func describeFields(into f: inout FieldList) {
        describeFields(into: &f, privateAddresses: nil)
    }

    func describeFields(into f: inout FieldList, privateAddresses: (local: BDAddress, peer: BDAddress)?) {
        f.add("Status", statusText(status))
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("Role", role.description)
        f.add("Peer address type", EventFormat.named(peerAddressType.name, peerAddressType.rawValue))
        f.add("Peer address", LEConnectionText.address(peerAddress, peerAddressType))
        if let privateAddresses {
            f.add("Local resolvable private address", privateAddresses.local.string)
            f.add("Peer resolvable private address", privateAddresses.peer.string)
        }
        LEConnectionText.describeParameters(into: &f, interval: connectionInterval, latency: peripheralLatency,
                                            timeout: supervisionTimeout)
        f.add("Central clock accuracy", centralClockAccuracy.description)
    }
}

/// Display shared by the connection-complete and connection-update events.
enum LEConnectionText {
    static func summary(status: HCIStatus, handle: UInt16, role: LERole, peer: DeviceAddress,
                        interval: UInt16) -> String {
        if !status.isSuccess { return "status " + statusText(status) + " peer " + peer.description }
        return "handle " + EventFormat.handle(handle) + " " + role.name.lowercased() + " peer " + peer.description
            + " interval " + EventFormat.milliseconds1_25(interval)
    }

    /// `C0:11:22:33:44:55 (random static)`.
    static func address(_ a: BDAddress, _ type: LEAddressType) -> String {
        a.string + " (" + DeviceAddress(a, type: type).kindName + ")"
    }

    static func describeParameters(into f: inout FieldList, interval: UInt16, latency: UInt16, timeout: UInt16) {
        f.add("Connection interval", EventFormat.units1_25ms(interval))
        f.add("Peripheral latency", EventFormat.count16(latency))
        f.add("Supervision timeout", EventFormat.units10ms(timeout))
    }
}
