/// The parameters of a Pairing Request or Pairing Response (Core Spec v5.4 Vol 3, Part H,
/// §3.5.1–3.5.2; the two PDUs share one layout). The 7 bytes of the PDU, code included, are
/// the `preq` / `pres` inputs of c1 (§2.2.3), and the last three after the code make up
/// IOcap of f6 (§2.2.8), so the pairing procedure keeps this value as it was exchanged.
public struct SMPPairingFeatures: Hashable, Sendable {
    public var ioCapability: SMPIOCapability
    public var oobDataFlag: SMPOOBDataFlag
    public var authenticationRequirements: SMPAuthenticationRequirements
    /// 7–16 octets; other values are reserved (the pairing procedure fails with Invalid
    /// Parameters on them, the decoder keeps them).
    public var maximumEncryptionKeySize: UInt8
    public var initiatorKeyDistribution: SMPKeyDistribution
    public var responderKeyDistribution: SMPKeyDistribution

    public init(ioCapability: SMPIOCapability, oobDataFlag: SMPOOBDataFlag = .notPresent,
                authenticationRequirements: SMPAuthenticationRequirements,
                maximumEncryptionKeySize: UInt8 = 16,
                initiatorKeyDistribution: SMPKeyDistribution, responderKeyDistribution: SMPKeyDistribution) {
        self.ioCapability = ioCapability
        self.oobDataFlag = oobDataFlag
        self.authenticationRequirements = authenticationRequirements
        self.maximumEncryptionKeySize = maximumEncryptionKeySize
        self.initiatorKeyDistribution = initiatorKeyDistribution
        self.responderKeyDistribution = responderKeyDistribution
    }

    /// The smallest and largest Maximum Encryption Key Size the specification allows.
    public static let keySizeRange: ClosedRange<UInt8> = 7...16

    init(decoding r: inout ByteReader) throws(WireError) {
        ioCapability = SMPIOCapability(try r.u8("IO Capability"))
        oobDataFlag = SMPOOBDataFlag(try r.u8("OOB Data Flag"))
        authenticationRequirements = SMPAuthenticationRequirements(rawValue: try r.u8("AuthReq"))
        maximumEncryptionKeySize = try r.u8("Maximum Encryption Key Size")
        initiatorKeyDistribution = SMPKeyDistribution(rawValue: try r.u8("Initiator Key Distribution"))
        responderKeyDistribution = SMPKeyDistribution(rawValue: try r.u8("Responder Key Distribution"))
    }

    func encode(into w: inout ByteWriter) {
        w.u8(ioCapability.rawValue)
        w.u8(oobDataFlag.rawValue)
        w.u8(authenticationRequirements.rawValue)
        w.u8(maximumEncryptionKeySize)
        w.u8(initiatorKeyDistribution.rawValue)
        w.u8(responderKeyDistribution.rawValue)
    }

    /// IOcap of f6 (§2.2.8): AuthReq, OOB data flag and IO capability, most significant first
    /// (so the value is those three bytes as a 24-bit number).
    public var ioCap: UInt32 {
        UInt32(authenticationRequirements.rawValue) << 16 | UInt32(oobDataFlag.rawValue) << 8 | UInt32(ioCapability.rawValue)
    }
}
