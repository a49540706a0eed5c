/// HCI_LE_Enable_Encryption (Core Spec v5.4 Vol 4, Part E, §7.8.24): the central starts (or
/// refreshes) link-layer encryption with a key. Acknowledged with Command Status; Encryption
/// Change (or, on a link already encrypted, Encryption Key Refresh Complete) ends it.
///
/// The key is a secret: its description shows "(redacted)", never the octets.
public struct LEEnableEncryption: HCICommand, Hashable {
    public typealias ReturnParameters = NoReturnParameters
    public static let opcode = HCIOpcode.leEnableEncryption
    public static let completesWithStatus = true

    public var connectionHandle: UInt16
    /// Rand of the key (0 for LE Secure Connections keys and STKs).
    public var randomNumber: UInt64
    /// EDIV of the key (0 for LE Secure Connections keys and STKs).
    public var encryptedDiversifier: UInt16
    /// The key as a number; sent least significant octet first.
    public var longTermKey: UInt128

    public init(connectionHandle: UInt16, randomNumber: UInt64, encryptedDiversifier: UInt16, longTermKey: UInt128) {
        self.connectionHandle = connectionHandle
        self.randomNumber = randomNumber
        self.encryptedDiversifier = encryptedDiversifier
        self.longTermKey = longTermKey
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        connectionHandle = try r.u16("Connection_Handle")
        randomNumber = try r.u64("Random_Number")
        encryptedDiversifier = try r.u16("Encrypted_Diversifier")
        longTermKey = try r.u128("Long_Term_Key")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u64(randomNumber)
        w.u16(encryptedDiversifier)
        w.u128(longTermKey)
    }

    public var summary: String {
        "handle " + HCICommandFormat.handle(connectionHandle) + " ediv " + HCICommandFormat.hex(encryptedDiversifier)
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Connection handle", HCICommandFormat.handle(connectionHandle))
        fields.add("Random number", HCICommandFormat.hex(randomNumber))
        fields.add("Encrypted diversifier", HCICommandFormat.hex(encryptedDiversifier))
        fields.add("Long term key", SMPKeyVisibility.placeholder)
    }

    /// Octets of the packet's parameters that hold the key (after Connection_Handle,
    /// Random_Number and Encrypted_Diversifier), for redaction.
    public static let keyOffset = 12
}

/// HCI_LE_Long_Term_Key_Request_Negative_Reply (§7.8.26): the host has no key for the
/// controller's LE Long Term Key Request. rtstack is central only, so it answers every such
/// request (which only a peripheral should get) this way.
public struct LELongTermKeyRequestNegativeReply: HCIConnectionHandleCommand, Hashable {
    public typealias ReturnParameters = ConnectionHandleReturnParameters
    public static let opcode = HCIOpcode.leLongTermKeyRequestNegativeReply

    public var connectionHandle: UInt16

    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
}
