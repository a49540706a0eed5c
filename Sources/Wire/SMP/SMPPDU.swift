/// One Security Manager Protocol PDU (Core Spec v5.4 Vol 3, Part H, §3.3–3.6): the payload
/// of an L2CAP frame on the Security Manager channel (CID 0x0006), code first.
///
/// 128-bit values (keys, confirm and random values, DHKey checks) are `UInt128`, read least
/// significant byte first as the wire carries them, so the number equals the value the
/// specification writes most significant first (its sample data of Appendix D reads
/// directly). Every command has a fixed length (`SMPCode.parameterLength`): a PDU that is
/// shorter or longer throws, and the pairing procedure answers it with Invalid Parameters
/// (§3.5.5). Codes this enum does not model decode as `.unknown`.
public enum SMPPDU: Sendable, Hashable {
    /// §3.5.1 Pairing Request (initiator → responder).
    case pairingRequest(SMPPairingFeatures)
    /// §3.5.2 Pairing Response.
    case pairingResponse(SMPPairingFeatures)
    /// §3.5.3 Pairing Confirm: Mconfirm / Sconfirm (legacy) or Ca / Cb (Secure Connections).
    case pairingConfirm(confirmValue: UInt128)
    /// §3.5.4 Pairing Random: Mrand / Srand or Na / Nb.
    case pairingRandom(randomValue: UInt128)
    /// §3.5.5 Pairing Failed.
    case pairingFailed(reason: SMPPairingFailedReason)
    /// §3.6.2 Encryption Information: the Long Term Key (legacy pairing).
    case encryptionInformation(longTermKey: UInt128)
    /// §3.6.3 Central Identification: EDIV and Rand that identify the LTK just sent.
    case centralIdentification(ediv: UInt16, rand: UInt64)
    /// §3.6.4 Identity Information: the Identity Resolving Key.
    case identityInformation(identityResolvingKey: UInt128)
    /// §3.6.5 Identity Address Information.
    case identityAddressInformation(SMPIdentityAddress)
    /// §3.6.6 Signing Information: the Connection Signature Resolving Key.
    case signingInformation(signatureKey: UInt128)
    /// §3.6.7 Security Request (responder → initiator).
    case securityRequest(SMPAuthenticationRequirements)
    /// §3.5.6 Pairing Public Key.
    case pairingPublicKey(SMPPublicKey)
    /// §3.5.7 Pairing DHKey Check: Ea / Eb.
    case pairingDHKeyCheck(UInt128)
    /// §3.5.8 Pairing Keypress Notification.
    case pairingKeypressNotification(SMPKeypressNotificationType)
    /// A code without a case here, with the bytes after it.
    case unknown(code: SMPCode, parameters: ArraySlice<UInt8>)

    public var code: SMPCode {
        switch self {
        case .pairingRequest: return .pairingRequest
        case .pairingResponse: return .pairingResponse
        case .pairingConfirm: return .pairingConfirm
        case .pairingRandom: return .pairingRandom
        case .pairingFailed: return .pairingFailed
        case .encryptionInformation: return .encryptionInformation
        case .centralIdentification: return .centralIdentification
        case .identityInformation: return .identityInformation
        case .identityAddressInformation: return .identityAddressInformation
        case .signingInformation: return .signingInformation
        case .securityRequest: return .securityRequest
        case .pairingPublicKey: return .pairingPublicKey
        case .pairingDHKeyCheck: return .pairingDHKeyCheck
        case .pairingKeypressNotification: return .pairingKeypressNotification
        case let .unknown(code, _): return code
        }
    }

    /// The PDU name, e.g. "Pairing Random".
    public var name: String { code.name }

    /// Whether the PDU carries key material that field descriptions redact: the LTK, IRK and
    /// CSRK of key distribution.
    public var carriesKey: Bool {
        switch self {
        case .encryptionInformation, .identityInformation, .signingInformation: return true
        default: return false
        }
    }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> SMPPDU {
        try decode(bytes[...])
    }

    public static func decode(_ bytes: ArraySlice<UInt8>) throws(WireError) -> SMPPDU {
        var r = ByteReader(bytes)
        let code = SMPCode(try r.u8("SMP Code"))
        if let length = code.parameterLength, r.count > length {
            throw WireError.malformed("\(code.name): \(r.count - length) byte(s) after the parameters")
        }
        switch code.rawValue {
        case 0x01: return .pairingRequest(try SMPPairingFeatures(decoding: &r))
        case 0x02: return .pairingResponse(try SMPPairingFeatures(decoding: &r))
        case 0x03: return .pairingConfirm(confirmValue: try r.u128("Confirm Value"))
        case 0x04: return .pairingRandom(randomValue: try r.u128("Random Value"))
        case 0x05: return .pairingFailed(reason: SMPPairingFailedReason(try r.u8("Reason")))
        case 0x06: return .encryptionInformation(longTermKey: try r.u128("Long Term Key"))
        case 0x07:
            let ediv = try r.u16("EDIV")
            return .centralIdentification(ediv: ediv, rand: try r.u64("Rand"))
        case 0x08: return .identityInformation(identityResolvingKey: try r.u128("Identity Resolving Key"))
        case 0x09:
            let type = try r.u8("AddrType")
            let bytes = try r.bytes(6, "BD_ADDR")
            return .identityAddressInformation(SMPIdentityAddress(addressType: type, address: BDAddress(littleEndian: bytes) ?? .zero))
        case 0x0A: return .signingInformation(signatureKey: try r.u128("Signature Key"))
        case 0x0B: return .securityRequest(SMPAuthenticationRequirements(rawValue: try r.u8("AuthReq")))
        case 0x0C: return .pairingPublicKey(try SMPPublicKey(decoding: &r))
        case 0x0D: return .pairingDHKeyCheck(try r.u128("DHKey Check"))
        case 0x0E: return .pairingKeypressNotification(SMPKeypressNotificationType(try r.u8("Notification Type")))
        default: return .unknown(code: code, parameters: r.rest())
        }
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(code.rawValue)
        switch self {
        case let .pairingRequest(features), let .pairingResponse(features):
            features.encode(into: &w)
        case let .pairingConfirm(value), let .pairingRandom(value), let .encryptionInformation(value),
             let .identityInformation(value), let .signingInformation(value), let .pairingDHKeyCheck(value):
            w.u128(value)
        case let .pairingFailed(reason):
            w.u8(reason.rawValue)
        case let .centralIdentification(ediv, rand):
            w.u16(ediv)
            w.u64(rand)
        case let .identityAddressInformation(identity):
            w.u8(identity.addressType)
            w.append(identity.address.bytes)
        case let .securityRequest(authReq):
            w.u8(authReq.rawValue)
        case let .pairingPublicKey(key):
            key.encode(into: &w)
        case let .pairingKeypressNotification(type):
            w.u8(type.rawValue)
        case let .unknown(_, parameters):
            w.append(parameters)
        }
    }

    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 65)
        encode(into: &w)
        return w.bytes
    }

    /// The frame that carries this PDU to `handle` on the Security Manager channel.
    public func frame(handle: UInt16) -> L2CAPFrame {
        L2CAPFrame(handle: handle, channelID: .securityManager, payload: encoded[...])
    }
}
