/// HCI_Read_Encryption_Key_Size (Core Spec v5.4 Vol 4, Part E, §7.5.7): the size of the key
/// the link is encrypted with, asked after Encryption Change [v1] (v2 carries it).
public struct ReadEncryptionKeySize: HCIConnectionHandleCommand, Hashable {
    public static let opcode = HCIOpcode.readEncryptionKeySize

    public var connectionHandle: UInt16

    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

    /// A failed command may carry the status alone: handle and size read 0 then.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var connectionHandle: UInt16
        /// Octets (1–16).
        public var keySize: UInt8

        public init(status: HCIStatus = .success, connectionHandle: UInt16, keySize: UInt8) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.keySize = keySize
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            connectionHandle = 0
            keySize = 0
            if !status.isSuccess && r.count < 3 { return }
            connectionHandle = try r.u16("Connection_Handle")
            keySize = try r.u8("Key_Size")
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            w.u16(connectionHandle)
            w.u8(keySize)
        }

        public var summary: String {
            status.description + " handle " + HCICommandFormat.handle(connectionHandle) + " key size " + String(keySize)
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            fields.add("Connection handle", HCICommandFormat.handle(connectionHandle))
            fields.add("Key size", String(keySize))
        }
    }
}
