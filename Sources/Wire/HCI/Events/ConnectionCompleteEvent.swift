/// HCI_Connection_Complete (Vol 4, Part E, §7.7.3): a BR/EDR ACL or SCO link is up (or the
/// attempt failed). A decoder of a dual-mode capture needs it to tell a BR/EDR link from an
/// LE one: both carry L2CAP, but with different signaling channels and CID ranges. Not a case
/// of `HCIEvent`, whose events are those an LE central meets: there it stays `.unknown`, and
/// the decoder reads its parameters with this type.
public struct ConnectionCompleteEvent: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var peerAddress: BDAddress
    /// 0x00 SCO, 0x01 ACL (eSCO links come with Synchronous Connection Complete instead).
    public var linkType: UInt8
    /// 0x00 link-level encryption off, 0x01 on.
    public var encryptionEnabled: UInt8

    public init(status: HCIStatus = .success, connectionHandle: UInt16, peerAddress: BDAddress,
                linkType: UInt8 = Self.aclLink, encryptionEnabled: UInt8 = 0) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.peerAddress = peerAddress
        self.linkType = linkType
        self.encryptionEnabled = encryptionEnabled
    }

    public static let scoLink: UInt8 = 0x00
    public static let aclLink: UInt8 = 0x01

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = try r.eventStatus()
        connectionHandle = try r.eventConnectionHandle()
        peerAddress = try r.eventAddress("BD_ADDR")
        linkType = try r.u8("Link_Type")
        encryptionEnabled = try r.u8("Encryption_Enabled")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.eventAddress(peerAddress)
        w.u8(linkType)
        w.u8(encryptionEnabled)
    }

    /// A BR/EDR address is always a public device address.
    public var peer: DeviceAddress { DeviceAddress(peerAddress, type: .publicDevice) }

    public var linkTypeName: String {
        switch linkType {
        case Self.scoLink: return "SCO"
        case Self.aclLink: return "ACL"
        default: return "Reserved"
        }
    }

    public var summary: String {
        let link = linkTypeName + " peer " + peerAddress.string
        if !status.isSuccess { return "status " + statusText(status) + " " + link }
        return "handle " + EventFormat.handle(connectionHandle) + " " + link
            + (encryptionEnabled == 0x01 ? " encrypted" : "")
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Status", statusText(status))
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("BD_ADDR", peerAddress.string)
        f.add("Link type", EventFormat.named(linkTypeName, linkType))
        f.add("Encryption enabled", EventFormat.named(encryptionEnabled == 0x01 ? "on" : encryptionEnabled == 0 ? "off" : "Reserved",
                                                      encryptionEnabled))
    }
}
