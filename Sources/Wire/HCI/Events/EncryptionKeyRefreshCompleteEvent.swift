/// HCI_Encryption_Key_Refresh_Complete (Vol 4, Part E, §7.7.39): on LE, sent instead of
/// Encryption Change when encryption is restarted on a link that was already encrypted.
public struct EncryptionKeyRefreshCompleteEvent: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = try r.eventStatus()
        connectionHandle = try r.eventConnectionHandle()
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
    }

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " status " + statusText(status)
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Status", statusText(status))
        f.add("Connection handle", EventFormat.handle(connectionHandle))
    }
}
