import Wire

/// The HCI backend's part of security (Docs/security.md, "How the host drives it"): CID
/// 0x0006 to the link's `LinkSecurity`, its actions to LE Enable Encryption and SMP PDUs, the
/// controller's encryption events back to it, and LE Long Term Key Requests refused (rtstack
/// is central only).
extension HCIHost {
    /// A connection came up: its security, and whether its plan waits for it.
    func securityForNewConnection(peer: DeviceAddress, linkPeer: DeviceAddress, at now: HostTime)
        -> (security: LinkSecurity, holdPlan: Bool) {
        let bond = securityContext.bonds.bond(for: linkPeer, crypto: securityContext.crypto)
            ?? securityContext.bonds.bond(for: peer, crypto: securityContext.crypto)
        let local = controllerInfo?.ownAddress ?? DeviceAddress(.zero, type: .randomDevice)
        var security = LinkSecurity(local: local, peer: peer, bond: bond)
        let hold = security.begin(required: configuration.security.level, context: &securityContext, at: now)
        return (security, hold)
    }

    /// A frame on the Security Manager channel of `connection`.
    func securityManager(_ payload: ArraySlice<UInt8>, on connection: Connection, at now: HostTime) {
        guard securityContext.crypto != nil || connection.security?.bond != nil else {
            // No pairing in this build or configuration: refuse at once, as before security.
            let (response, warning) = SecurityManagerResponder.answer(payload)
            if let w = warning { deliver(.warning(w)) }
            if let r = response { acl.enqueue(handle: connection.handle, channel: .securityManager, payload: r[...]) }
            return
        }
        connection.security?.received(payload, context: &securityContext, at: now)
        serviceSecurity(connection, at: now)
    }

    /// Carries out what a link's security asks.
    func serviceSecurity(_ c: Connection, at now: HostTime) {
        let id = c.link
        while let action = c.security?.pollAction() {
            switch action {
            case let .sendSMP(pdu):
                acl.enqueue(handle: c.handle, channel: .securityManager, payload: pdu.encoded[...])
            case let .encrypt(key):
                if c.featureExchange != nil {
                    c.featureExchange = Connection.FeatureExchange(thenEncryptWith: key)
                } else {
                    sendEnableEncryption(c, key)
                }
            case let .event(e):
                switch e {
                case .bondStored, .bondRemoved: resolver.bondsChanged()
                default: break
                }
                deliver(.security(id, e))
            case let .releasePlan(trust):
                linkTable.releasePlan(id, trustCache: trust, at: now)
            case let .resumeRequest(raised):
                linkTable.securityDone(id, raised: raised, at: now)
            case let .close(failure):
                linkTable.securityFailed(id, error: .security(failure), at: now)
            }
        }
    }

    private func sendEnableEncryption(_ c: Connection, _ key: LinkEncryptionKey) {
        send(LEEnableEncryption(connectionHandle: c.handle, randomNumber: key.rand, encryptedDiversifier: key.ediv,
                                longTermKey: key.key),
             purpose: .enableEncryption(c.link))
    }

    /// A bonded peer's link is encrypted at once, but only after the link layers have
    /// exchanged features: Zephyr's link layer, with the peripheral starting its own procedures
    /// on connection, left about one re-encryption in twenty hanging until the LL response
    /// timeout (40 s) when LE Enable Encryption came first. Linux orders them the same way.
    func exchangeFeaturesBeforeEncrypting(_ c: Connection) {
        guard c.security?.encryptsAtOnce == true, controllerSupports(LEReadRemoteFeatures.opcode) else { return }
        c.featureExchange = Connection.FeatureExchange(thenEncryptWith: nil)
        send(LEReadRemoteFeatures(connectionHandle: c.handle), purpose: .readRemoteFeatures(c.link))
    }

    /// LE Read Remote Features Complete (or its failure): the encryption waiting for it goes.
    func featuresExchanged(handle: UInt16) {
        guard let c = connections[handle], let exchange = c.featureExchange else { return }
        c.featureExchange = nil
        if let key = exchange.thenEncryptWith { sendEnableEncryption(c, key) }
    }

    /// The link table asks for more security on `id` after an ATT refusal.
    func raiseSecurity(_ id: LinkID, after error: ATTErrorCode, at now: HostTime) {
        guard let c = connection(of: id), c.security != nil else {
            linkTable.securityDone(id, raised: false, at: now)
            return
        }
        if c.security?.requestRefused(error, context: &securityContext, at: now) != true {
            linkTable.securityDone(id, raised: false, at: now)
        }
        serviceSecurity(c, at: now)
    }

    // MARK: Controller events

    /// Encryption Change [v1/v2] or Encryption Key Refresh Complete. `keySize` is v2's; else
    /// Read Encryption Key Size asks (where the controller has it), else the key's own size is
    /// taken (the controller encrypts with the key it was given, already shortened).
    func encryptionEvent(handle: UInt16, status: HCIStatus, enabled: Bool, keySize: UInt8?, at now: HostTime) {
        guard let c = connections[handle], c.security != nil else {
            warn("encryption event for handle \(Hex.number(handle, width: 4)), which has no link, ignored")
            return
        }
        // Signed writes go unsigned on an encrypted link (Vol 3, Part G, §4.9.2).
        if status.isSuccess { c.client.linkEncrypted = enabled }
        guard status.isSuccess else {
            c.security?.encryptionFailed(status, context: &securityContext, at: now)
            serviceSecurity(c, at: now)
            return
        }
        guard enabled else {
            c.security?.encryptionFailed(.unspecifiedError, context: &securityContext, at: now)
            serviceSecurity(c, at: now)
            return
        }
        if let size = keySize {
            c.security?.encryptionChanged(keySize: size, context: &securityContext, at: now)
        } else if controllerSupports(ReadEncryptionKeySize.opcode) {
            // The pairing takes the peer's keys from now on: they may come before this
            // command's Command Complete.
            c.security?.encryptionChanged(keySize: nil, context: &securityContext, at: now)
            // A controller that repeats the event while the read waits for a command credit gets
            // that one read (sent after the last event, it reads the key in use then), not one
            // per event: the queue would grow without bound (found by the host fuzzer).
            if !commands.waits(ReadEncryptionKeySize.opcode, handle: handle) {
                send(ReadEncryptionKeySize(connectionHandle: handle), purpose: .readEncryptionKeySize(c.link))
            }
        } else {
            let size = c.security?.expectedKeySize ?? 16
            c.security?.encryptionChanged(keySize: size, context: &securityContext, at: now)
        }
        serviceSecurity(c, at: now)
    }

    /// The answer to LE Enable Encryption: only a failure matters (success comes as an event).
    func enableEncryptionAnswered(_ id: LinkID, status: HCIStatus, handle: UInt16?, at now: HostTime) {
        guard !status.isSuccess, let c = connection(of: id), handle == c.handle else { return }
        c.security?.encryptionFailed(status, context: &securityContext, at: now)
        serviceSecurity(c, at: now)
    }

    func encryptionKeySizeAnswered(_ id: LinkID, answer: CommandAnswer, at now: HostTime) {
        guard let c = connection(of: id), answer.command.connectionHandle == c.handle else { return }
        var size = c.security?.expectedKeySize ?? 16
        if answer.status.isSuccess, let r = try? ReadEncryptionKeySize.ReturnParameters(bytes: answer.returnParameters),
           r.keySize > 0 {
            size = r.keySize
        } else {
            warn("Read Encryption Key Size failed (\(answer.status)); taking the key's own size, \(size)")
        }
        c.security?.encryptionKeySizeRead(size, context: &securityContext, at: now)
        serviceSecurity(c, at: now)
    }

    /// Number Of Completed Packets for `handle`: once nothing of the link waits or is in
    /// flight, the SMP PDUs of a finishing pairing have been sent.
    func securityDataSent(handle: UInt16, at now: HostTime) {
        guard let c = connections[handle], c.security?.awaitsDelivery == true,
              acl.inFlight(handle) == 0, acl.queued(handle) == 0 else { return }
        c.security?.delivered(context: &securityContext, at: now)
        serviceSecurity(c, at: now)
    }

    /// LE Long Term Key Request: only a peripheral gets one; rtstack has no key to give.
    /// A controller that repeats the request before the answer went out (its command credits
    /// spent on others) gets one answer, not one per event: the queue would grow without bound.
    func longTermKeyRequested(handle: UInt16) {
        guard !commands.waits(LELongTermKeyRequestNegativeReply.opcode, handle: handle) else { return }
        send(LELongTermKeyRequestNegativeReply(connectionHandle: handle), purpose: .longTermKeyNegativeReply)
    }

    // MARK: Time

    var securityDeadline: HostTime? {
        var d = EarliestDeadline()
        for record in linkTable.list { d.consider(record.phase.connection?.security?.nextDeadline) }
        return d.time
    }

    func advanceSecurity(to now: HostTime) {
        for record in linkTable.list {
            guard let c = record.phase.connection, let t = c.security?.nextDeadline, t <= now else { continue }
            c.security?.advanceTime(to: now, context: &securityContext)
            serviceSecurity(c, at: now)
        }
    }

    // MARK: The application

    public func answerPairing(_ link: LinkID, _ answer: PairingAnswer, at now: HostTime) {
        guard let c = connection(of: link) else { return }
        c.security?.answer(answer, context: &securityContext, at: now)
        serviceSecurity(c, at: now)
        serviceLinks(at: now)
    }

    public func secure(_ link: LinkID, _ need: SecurityNeed, at now: HostTime) {
        guard let c = connection(of: link), c.security != nil else {
            deliver(.security(link, .failed(.unavailable(linkTable.notConnectedReason(link)))))
            return
        }
        c.security?.applicationWants(need, context: &securityContext, at: now)
        serviceSecurity(c, at: now)
        serviceLinks(at: now)
    }

    public var bonds: [BondRecord] { securityContext.bonds.bonds }

    public func removeBond(_ peer: DeviceAddress) -> Bool {
        guard securityContext.bonds.remove(peer) else { return false }
        resolver.bondsChanged()
        return true
    }

    /// Whether the controller lists `opcode` in its Supported Commands (unknown: assumed not).
    func controllerSupports(_ opcode: HCIOpcode) -> Bool {
        guard let info = controllerInfo, info.supportedCommands.count >= HCISupportedCommands.length else { return false }
        return HCISupportedCommands(octets: info.supportedCommands).supports(opcode) == true
    }
}
