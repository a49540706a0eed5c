import Wire

/// Phase 3 (Core Spec v5.4 Vol 3, Part H, §3.6.1): once the link is encrypted the responder
/// distributes its keys, in the order Encryption Information, Central Identification,
/// Identity Information, Identity Address Information, Signing Information; then rtstack
/// distributes its own.
///
/// Distribution starts at Encryption Change, not when the host knows the key size: a real
/// peripheral sends its keys in the first connection events after encryption, and the
/// Command Complete of HCI Read Encryption Key Size can come after them (a slow H4 UART, a
/// busy controller). So the peer's keys are taken as they come, and only rtstack's own keys
/// and the result wait for the key size to be checked: nothing of rtstack's goes out on a
/// link whose key is too short.
extension PairingInitiator {
    /// The controller reports the link encrypted (Encryption Change with status 0, or Key
    /// Refresh Complete). `keySize` is the one the event carried (Encryption Change v2), nil
    /// while the host still asks (Read Encryption Key Size; then `encryptionKeySizeRead`).
    /// Outside a pairing (re-encryption with a bond's LTK) it is not this procedure's business.
    public mutating func encryptionChanged(keySize: UInt8?, at now: HostTime) {
        guard case let .awaitingEncryption(negotiation, key) = state else { return }
        let result = PairingResult(
            peerAddress: peerAddress, identityAddress: nil,
            longTermKey: negotiation.secureConnections && negotiation.bonding ? key : nil,
            identityResolvingKey: nil, peerSignatureKey: nil, localSignatureKey: nil,
            model: negotiation.model, secureConnections: negotiation.secureConnections,
            keySize: negotiation.keySize, bonded: negotiation.bonding)
        state = .distributingKeys(negotiation, ReceivedKeys(result: result))
        if let keySize { encryptionKeySizeRead(keySize, at: now) }
    }

    /// The key size the controller encrypted with (HCI Read Encryption Key Size), after
    /// `encryptionChanged(keySize: nil)`; whatever keys the peer sent meanwhile are kept.
    public mutating func encryptionKeySizeRead(_ keySize: UInt8, at now: HostTime) {
        if case .awaitingEncryption = state { return encryptionChanged(keySize: keySize, at: now) }
        guard case .distributingKeys(let negotiation, var received) = state, !received.keySizeChecked else { return }
        if keySize < negotiation.keySize || keySize < configuration.securityLevel.minimumKeySize {
            return fail(.encryptionKeySize(keySize), at: now)
        }
        received.keySizeChecked = true
        state = .distributingKeys(negotiation, received)
        distributeOwnKeysWhenDone(negotiation, received, at: now)
    }

    /// Encryption Change with an error status while pairing waited for it.
    public mutating func encryptionFailed(status: HCIStatus, at now: HostTime) {
        guard case .awaitingEncryption = state else { return }
        fail(.encryptionFailed(status), at: now)
    }

    /// The code of the responder's next key PDU, nil when all have come.
    func nextResponderKey(_ negotiation: PairingNegotiation, _ received: ReceivedKeys) -> SMPCode? {
        let keys = negotiation.responderKeys
        if keys.contains(.encryptionKey) {
            if received.ltk == nil { return .encryptionInformation }
            if received.centralIdentification == nil { return .centralIdentification }
        }
        if keys.contains(.identityKey) {
            if received.irk == nil { return .identityInformation }
            if received.identity == nil { return .identityAddressInformation }
        }
        if keys.contains(.signingKey), received.csrk == nil { return .signingInformation }
        return nil
    }

    mutating func keyReceived(_ pdu: SMPPDU, _ negotiation: PairingNegotiation, _ received: ReceivedKeys, at now: HostTime) {
        guard let expected = nextResponderKey(negotiation, received), pdu.code == expected else {
            guard pdu.code.distributedKey != nil else { return unexpected(pdu, at: now) }
            return fail(.unexpectedKey(pdu.code, expected: nextResponderKey(negotiation, received),
                                       agreed: negotiation.responderKeys), at: now)
        }
        var received = received
        switch pdu {
        case let .encryptionInformation(ltk):
            received.ltk = ltk
        case let .centralIdentification(ediv, rand):
            received.centralIdentification = (ediv, rand)
            if let ltk = received.ltk, negotiation.bonding {
                received.result.longTermKey = LinkEncryptionKey(key: LinkEncryptionKey.masked(ltk, toSize: negotiation.keySize),
                                                                ediv: ediv, rand: rand, keySize: negotiation.keySize)
            }
        case let .identityInformation(irk):
            received.irk = irk
            received.result.identityResolvingKey = irk
        case let .identityAddressInformation(identity):
            guard let address = identity.deviceAddress else {
                return fail(.invalidParameters("Identity Address Information AddrType \(identity.addressType) is reserved"), at: now)
            }
            received.identity = identity
            received.result.identityAddress = address
        case let .signingInformation(csrk):
            received.csrk = csrk
            received.result.peerSignatureKey = csrk
        default:
            return unexpected(pdu, at: now)
        }
        state = .distributingKeys(negotiation, received)
        distributeOwnKeysWhenDone(negotiation, received, at: now)
    }

    /// rtstack's turn comes once the peer has sent every key it agreed to and the key size
    /// is checked, in whichever order those two happen.
    private mutating func distributeOwnKeysWhenDone(_ negotiation: PairingNegotiation, _ received: ReceivedKeys,
                                                    at now: HostTime) {
        guard received.keySizeChecked, nextResponderKey(negotiation, received) == nil else { return }
        distributeOwnKeys(negotiation, received, at: now)
    }

    /// rtstack's keys, as negotiated, then done. It never offers EncKey (it is not a
    /// peripheral), so its distribution is IdKey and SignKey at most.
    mutating func distributeOwnKeys(_ negotiation: PairingNegotiation, _ received: ReceivedKeys, at now: HostTime) {
        var result = received.result
        if negotiation.initiatorKeys.contains(.identityKey), let identity = configuration.localIdentity {
            send(.identityInformation(identityResolvingKey: identity.irk), at: now)
            send(.identityAddressInformation(SMPIdentityAddress(identity.address)), at: now)
        }
        if negotiation.initiatorKeys.contains(.signingKey) {
            let csrk = crypto.random128()
            send(.signingInformation(signatureKey: csrk), at: now)
            result.localSignatureKey = csrk
        }
        if !negotiation.bonding {
            // Keys of a pairing without bonding are for this connection only.
            result.identityResolvingKey = nil
            result.peerSignatureKey = nil
            result.localSignatureKey = nil
        }
        complete(result)
    }
}

extension SMPCode {
    /// The key distribution bit a key PDU belongs to (§3.6.1), nil for other commands.
    var distributedKey: SMPKeyDistribution? {
        switch self {
        case .encryptionInformation, .centralIdentification: return .encryptionKey
        case .identityInformation, .identityAddressInformation: return .identityKey
        case .signingInformation: return .signingKey
        default: return nil
        }
    }
}
