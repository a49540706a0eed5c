/// HCI_Encryption_Change [v1] (Vol 4, Part E, §7.7.8): encryption on a link was started,
/// stopped, or failed to start.
public struct EncryptionChangeV1Event: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var encryptionEnabled: EncryptionEnabled

    public init(status: HCIStatus = .success, connectionHandle: UInt16, encryptionEnabled: EncryptionEnabled) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.encryptionEnabled = encryptionEnabled
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = try r.eventStatus()
        connectionHandle = try r.eventConnectionHandle()
        encryptionEnabled = EncryptionEnabled(rawValue: try r.u8("Encryption_Enabled"))
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(encryptionEnabled.rawValue)
    }

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " encryption " + (encryptionEnabled.isOn ? "on" : "off")
            + (status.isSuccess ? "" : " status " + statusText(status))
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Status", statusText(status))
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("Encryption enabled", encryptionEnabled.description)
    }
}
