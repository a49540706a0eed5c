extension SMPPDU: FieldDescribing {
    /// One phrase after the PDU name (the name itself is not repeated), e.g.
    /// `KeyboardDisplay, Bonding, MITM, SC, key size 16`. Keys are never in it.
    public var summary: String {
        switch self {
        case let .pairingRequest(f), let .pairingResponse(f):
            return "\(f.ioCapability.name), \(f.authenticationRequirements.names), key size \(f.maximumEncryptionKeySize)"
                + ", initiator keys \(f.initiatorKeyDistribution.names), responder keys \(f.responderKeyDistribution.names)"
        case let .pairingConfirm(value), let .pairingRandom(value), let .pairingDHKeyCheck(value):
            return "value " + Self.wireHex(value)
        case let .pairingFailed(reason):
            return reason.description
        case .encryptionInformation, .identityInformation, .signingInformation:
            return "key " + SMPKeyVisibility.placeholder
        case let .centralIdentification(ediv, rand):
            return "EDIV " + Hex.lowerNumber(ediv, width: 4) + " Rand " + Hex.lowerNumber(rand, width: 16)
        case let .identityAddressInformation(identity):
            return identity.address.string + " (" + identity.addressTypeName + ")"
        case let .securityRequest(authReq):
            return authReq.names
        case let .pairingPublicKey(key):
            return "X " + Hex.string(key.x.prefix(8)) + "… Y " + Hex.string(key.y.prefix(8)) + "…"
        case let .pairingKeypressNotification(type):
            return type.description
        case let .unknown(code, parameters):
            return "code \(L2CAPText.hex8(code.rawValue)) parameters \(L2CAPText.short(parameters))"
        }
    }

    /// The fields with keys redacted (what `FieldDescribing` callers get).
    public func describeFields(into fields: inout FieldList) {
        describeFields(into: &fields, keys: .redacted)
    }

    /// The fields; key material (LTK, IRK, CSRK) only when `keys` is `.shown`. Values are
    /// shown as hex in wire order (least significant byte first), as the hex dump has them.
    public func describeFields(into fields: inout FieldList, keys: SMPKeyVisibility) {
        fields.add("Code", code.description)
        switch self {
        case let .pairingRequest(f), let .pairingResponse(f):
            fields.add("IO Capability", f.ioCapability.description)
            fields.add("OOB Data Flag", f.oobDataFlag.description)
            fields.add("AuthReq", f.authenticationRequirements.description)
            let size = f.maximumEncryptionKeySize
            fields.add("Maximum Encryption Key Size", SMPPairingFeatures.keySizeRange.contains(size) ? "\(size)" : "\(size) (reserved)")
            fields.add("Initiator Key Distribution", f.initiatorKeyDistribution.description)
            fields.add("Responder Key Distribution", f.responderKeyDistribution.description)
        case let .pairingConfirm(value):
            fields.add("Confirm Value", Self.wireHex(value))
        case let .pairingRandom(value):
            fields.add("Random Value", Self.wireHex(value))
        case let .pairingFailed(reason):
            fields.add("Reason", reason.description)
        case let .encryptionInformation(key):
            fields.add("Long Term Key", Self.key(key, keys))
        case let .centralIdentification(ediv, rand):
            fields.add("EDIV", Hex.lowerNumber(ediv, width: 4))
            fields.add("Rand", Hex.lowerNumber(rand, width: 16))
        case let .identityInformation(key):
            fields.add("Identity Resolving Key", Self.key(key, keys))
        case let .identityAddressInformation(identity):
            fields.add("AddrType", L2CAPText.named(identity.addressTypeName, identity.addressType))
            fields.add("BD_ADDR", identity.address.string)
        case let .signingInformation(key):
            fields.add("Signature Key", Self.key(key, keys))
        case let .securityRequest(authReq):
            fields.add("AuthReq", authReq.description)
        case let .pairingPublicKey(key):
            fields.add("Public Key X", Hex.spaced(key.x.reversed()))
            fields.add("Public Key Y", Hex.spaced(key.y.reversed()))
        case let .pairingDHKeyCheck(value):
            fields.add("DHKey Check", Self.wireHex(value))
        case let .pairingKeypressNotification(type):
            fields.add("Notification Type", type.description)
        case let .unknown(_, parameters):
            fields.add("Parameters", L2CAPText.bytes(parameters))
        }
    }

    private static func key(_ value: UInt128, _ keys: SMPKeyVisibility) -> String {
        keys == .shown ? wireHex(value) : SMPKeyVisibility.placeholder
    }

    /// The 16 bytes as the wire carries them, spaced.
    static func wireHex(_ value: UInt128) -> String {
        var w = ByteWriter(capacity: 16)
        w.u128(value)
        return Hex.spaced(w.bytes)
    }
}
