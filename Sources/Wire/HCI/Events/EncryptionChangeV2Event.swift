/// HCI_Encryption_Change [v2] (Vol 4, Part E, §7.7.8): v1 plus the negotiated key size, so
/// the host can refuse a link whose key is too short without asking separately.
public struct EncryptionChangeV2Event: WireCodable, FieldDescribing, Hashable {
    /// Every field v1 has, so that one handler can serve both versions.
    public var v1: EncryptionChangeV1Event
    /// In octets (7…16).
    public var encryptionKeySize: UInt8

    public init(_ v1: EncryptionChangeV1Event, encryptionKeySize: UInt8) {
        self.v1 = v1
        self.encryptionKeySize = encryptionKeySize
    }

    public init(status: HCIStatus = .success, connectionHandle: UInt16, encryptionEnabled: EncryptionEnabled,
                encryptionKeySize: UInt8) {
        self.init(EncryptionChangeV1Event(status: status, connectionHandle: connectionHandle,
                                          encryptionEnabled: encryptionEnabled),
                  encryptionKeySize: encryptionKeySize)
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        v1 = try EncryptionChangeV1Event(decoding: &r)
        encryptionKeySize = try r.u8("Encryption_Key_Size")
    }

    public func encode(into w: inout ByteWriter) {
        v1.encode(into: &w)
        w.u8(encryptionKeySize)
    }

    public var status: HCIStatus { v1.status }
    public var connectionHandle: UInt16 { v1.connectionHandle }
    public var encryptionEnabled: EncryptionEnabled { v1.encryptionEnabled }

    public var summary: String {
        v1.summary + (encryptionEnabled.isOn ? " key size " + String(encryptionKeySize) : "")
    }

    public func describeFields(into f: inout FieldList) {
        v1.describeFields(into: &f)
        f.add("Encryption key size", String(encryptionKeySize))
    }
}
