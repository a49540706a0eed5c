/// HCI_LE_Long_Term_Key_Request (Vol 4, Part E, §7.7.65.5): only a peripheral receives it
/// (the central starts encryption); decoded so that captures of either role read well.
public struct LELongTermKeyRequestEvent: WireCodable, FieldDescribing, Hashable {
    public var connectionHandle: UInt16
    /// Rand of the legacy-pairing key distribution (0 for LE Secure Connections keys).
    public var randomNumber: UInt64
    /// EDIV of the legacy-pairing key distribution.
    public var encryptedDiversifier: UInt16

    public init(connectionHandle: UInt16, randomNumber: UInt64, encryptedDiversifier: UInt16) {
        self.connectionHandle = connectionHandle
        self.randomNumber = randomNumber
        self.encryptedDiversifier = encryptedDiversifier
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        connectionHandle = try r.eventConnectionHandle()
        randomNumber = try r.u64("Random_Number")
        encryptedDiversifier = try r.u16("Encrypted_Diversifier")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u64(randomNumber)
        w.u16(encryptedDiversifier)
    }

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " ediv " + EventFormat.hex16(encryptedDiversifier)
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("Random number", Hex.number(randomNumber, width: 16))
        f.add("Encrypted diversifier", EventFormat.hex16(encryptedDiversifier))
    }
}
