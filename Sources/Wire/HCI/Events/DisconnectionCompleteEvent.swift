/// HCI_Disconnection_Complete (Vol 4, Part E, §7.7.5). For the host it also returns the ACL
/// credits of packets still queued on the link.
public struct DisconnectionCompleteEvent: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    /// Why the link went down (an error code, Vol 1, Part F).
    public var reason: HCIStatus

    public init(status: HCIStatus = .success, connectionHandle: UInt16, reason: HCIStatus) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.reason = reason
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = try r.eventStatus()
        connectionHandle = try r.eventConnectionHandle()
        reason = HCIStatus(rawValue: try r.u8("Reason"))
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(reason.rawValue)
    }

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " reason " + statusText(reason)
            + (status.isSuccess ? "" : " status " + statusText(status))
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Status", statusText(status))
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("Reason", statusText(reason))
    }
}
