import Wire

/// What the kernel host tracks about security beyond its links: per peer, what the kernel's
/// last key was (a peer's, not a link's: it outlives every socket); and the adapter settings
/// it changed. Each link's own part is its record's `kernelSecurity`.
struct KernelSecurityState {
    /// New Long Term Key of each peer: what the kernel's pairing made.
    var keys: [DeviceAddress: (level: SecurityLevel, keySize: UInt8, bonded: Bool)] = [:]
    /// Set Bondable / Set Secure Connections were switched on by this host (and go back off at
    /// the end).
    var bondableByHost = false
    var secureConnectionsByHost = false
}

/// One link's security on the kernel backend, kept in its `LinkRecord`.
struct KernelLinkSecurity {
    enum Prompt {
        case passkey(DeviceAddress)
        case confirm(DeviceAddress)
    }

    /// The level the kernel reached on the socket.
    var level: SecurityLevel?
    /// BT_SECURITY raised after an ATT refusal: the level needed and when to give up.
    var raising: (need: SecurityLevel, deadline: HostTime)?
    /// Pair Device sent for the link (`Host.secure`), to this peer.
    var pairing: DeviceAddress?
    var prompt: Prompt?
}

/// Security on the kernel backend (Docs/security.md): the kernel pairs and encrypts with its
/// own SMP. rtstack asks for a level with BT_SECURITY on each link's socket (at connect, and
/// raised after an ATT refusal), pairs on request with Pair Device, and is the kernel's pairing
/// agent on the management channel — passkeys and numeric comparisons reach the application as
/// `SecurityEvent.prompt`, its answers go back as User Passkey / Confirmation Replies — so no
/// bluetoothd agent is needed. Bonds are the kernel's (and bluetoothd's, when it runs).
extension KernelHost {
    /// Bring-up's last steps, when security is asked for: what bluetoothd sets up — the IO
    /// capability the kernel pairs with, bonding, LE Secure Connections.
    func configurePairing(at now: HostTime) {
        guard let io = configuration.ioCapability else { return }
        send(.setIOCapability(io, index: configuration.index), at: now)
        if configuration.bondable, !settings.contains(.bondable) {
            security.bondableByHost = true
            send(.setBondable(true, index: configuration.index), at: now)
        }
        if !settings.contains(.secureConnections) {
            security.secureConnectionsByHost = true
            send(.setSecureConnections(true, index: configuration.index), at: now)
        }
    }

    /// The link's socket connected: the kernel has reached the BT_SECURITY it was given.
    func channelSecured(_ id: LinkID, _ level: KernelSecurityLevel?) {
        guard let k = level, let l = SecurityLevel(rawValue: Int(k.rawValue)), let record = linkTable.record(id) else { return }
        record.kernelSecurity.level = l
        // Signed writes go unsigned on an encrypted link (Vol 3, Part G, §4.9.2).
        record.phase.connection?.client.linkEncrypted = l > .low
        if l > .low {
            let peer = record.peer
            deliver(.security(id, .encrypted(level: l, keySize: security.keys[peer]?.keySize ?? 16,
                                             withBond: security.keys[peer] == nil)))
        }
    }

    // MARK: Raising a link's level after an ATT refusal

    func raiseSecurity(_ id: LinkID, after error: ATTErrorCode, at now: HostTime) {
        let record = linkTable.record(id)
        let level = record?.kernelSecurity.level ?? .low
        let keySize = record.flatMap { security.keys[$0.peer]?.keySize } ?? 16
        guard configuration.automaticSecurity, let record, hasSocket(id), record.kernelSecurity.raising == nil,
              let need = SecurityNeed.after(error, level: level, keySize: keySize),
              let kernelLevel = KernelSecurityLevel(rawValue: UInt8(need.level.rawValue)) else {
            linkTable.securityDone(id, raised: false, at: now)
            return
        }
        record.kernelSecurity.raising = (need.level, now &+ configuration.securityTimeout)
        deliver(.security(id, .pairingStarted(need)))
        actions.append(.raiseSecurity(id, kernelLevel))
    }

    /// The socket is writable again after BT_SECURITY was raised: `level` is what it has now
    /// (nil: the kernel refused the raise).
    public func securityRaised(_ id: LinkID, level: KernelSecurityLevel?, at now: HostTime) {
        guard let record = linkTable.record(id), let raising = record.kernelSecurity.raising else { return }
        record.kernelSecurity.raising = nil
        let reached = level.flatMap { SecurityLevel(rawValue: Int($0.rawValue)) } ?? .low
        if reached >= raising.need {
            record.kernelSecurity.level = reached
            record.phase.connection?.client.linkEncrypted = reached > .low
            deliver(.security(id, .encrypted(level: reached, keySize: security.keys[record.peer]?.keySize ?? 16,
                                             withBond: false)))
            linkTable.securityDone(id, raised: true, at: now)
        } else {
            deliver(.security(id, .failed(.unavailable("the kernel could not raise the link to \(raising.need.name)"))))
            linkTable.securityDone(id, raised: false, at: now)
        }
        serviceLinks(at: now)
    }

    /// A raise that did not end in time: the request fails, and the socket (left waiting for
    /// security by the kernel) cannot carry ATT any more, so the link is closed.
    func securityTimers(at now: HostTime) {
        for record in linkTable.list {
            guard let r = record.kernelSecurity.raising, r.deadline <= now else { continue }
            let id = record.id
            record.kernelSecurity.raising = nil
            deliver(.security(id, .failed(.unavailable("the kernel's pairing did not end within \(configuration.securityTimeout / 1_000_000_000) s"))))
            linkTable.securityDone(id, raised: false, at: now)
            linkTable.securityFailed(id, error: .security(.unavailable("pairing timed out")), at: now)
        }
    }

    var securityDeadline: HostTime? {
        var d = EarliestDeadline()
        for record in linkTable.list { d.consider(record.kernelSecurity.raising?.deadline) }
        return d.time
    }

    // MARK: The management channel

    /// Pairing events; false when the event is not one.
    func pairingEvent(_ code: ManagementEventCode, _ parameters: ArraySlice<UInt8>, at now: HostTime) -> Bool {
        let event: ManagementPairingEvent
        do throws(WireError) {
            guard let e = try ManagementPairingEvent(code, parameters) else { return false }
            event = e
        } catch {
            warn("management pairing event dropped: \(error)", parameters)
            return true
        }
        let record = record(of: event.peer)
        let link = record?.id
        switch event {
        case let .newLongTermKey(peer, bonded, authenticated, sc, size):
            security.keys[peer] = (SecurityLevel.of(authenticated: authenticated, secureConnections: sc, keySize: size), size, bonded)
        case let .userPasskeyRequest(peer):
            // Only for rtstack's links: bluetoothd's agent answers for its own devices.
            guard let record, let link else { return true }
            record.kernelSecurity.prompt = .passkey(peer)
            deliver(.security(link, .prompt(.enterPasskey)))
        case let .passkeyNotify(_, passkey):
            if let link { deliver(.security(link, .prompt(.displayPasskey(passkey)))) }
        case let .userConfirmationRequest(peer, justWorks, value):
            guard let record, let link else { return true }
            if justWorks {
                // Just Works authorization: rtstack asked for this link's security itself.
                send(.userConfirmation(true, peer, index: configuration.index), at: now, waitForAnswer: false)
            } else {
                record.kernelSecurity.prompt = .confirm(peer)
                deliver(.security(link, .prompt(.confirmNumber(value))))
            }
        case let .authenticationFailed(_, status):
            guard let record, let link else { return true }
            record.kernelSecurity.prompt = nil
            deliver(.security(link, .failed(.kernel(status))))
            if record.kernelSecurity.raising != nil {
                record.kernelSecurity.raising = nil
                linkTable.securityDone(link, raised: false, at: now)
                linkTable.securityFailed(link, error: .security(.kernel(status)), at: now)
            }
        }
        return true
    }

    /// Command Complete of Pair Device, Unpair Device and the user replies, which run beside
    /// the one-at-a-time bring-up and discovery commands; false for other commands.
    func pairingAnswered(_ opcode: ManagementOpcode, _ status: ManagementStatus, _ rp: ArraySlice<UInt8>,
                         at now: HostTime) -> Bool {
        switch opcode {
        case .pairDevice:
            var r = ByteReader(rp)
            let peer = try? ManagementPairingEvent.address(&r)
            guard let record = linkTable.list.first(where: { $0.kernelSecurity.pairing != nil && $0.kernelSecurity.pairing == peer })
                ?? linkTable.list.first(where: { $0.kernelSecurity.pairing != nil }) else { return true }
            let id = record.id
            record.kernelSecurity.pairing = nil
            if status == .success || status == ManagementStatus(rawValue: 0x13) {
                let key = peer.flatMap { security.keys[$0] }
                let level = key?.level ?? max(record.kernelSecurity.level ?? .medium, .medium)
                record.kernelSecurity.level = level
                deliver(.security(id, .encrypted(level: level, keySize: key?.keySize ?? 16, withBond: false)))
            } else {
                deliver(.security(id, .failed(.kernel(status))))
            }
            return true
        case .unpairDevice, .userConfirmationReply, .userConfirmationNegativeReply, .userPasskeyReply,
             .userPasskeyNegativeReply:
            if status != .success { warn("\(opcode.name) failed: \(status)") }
            return true
        default:
            return false
        }
    }

    private func record(of peer: DeviceAddress) -> LinkRecord? {
        linkTable.list.first { $0.peer.address == peer.address }
    }

    // MARK: The application

    public func answerPairing(_ link: LinkID, _ answer: PairingAnswer, at now: HostTime) {
        guard let record = linkTable.record(link), let prompt = record.kernelSecurity.prompt else { return }
        record.kernelSecurity.prompt = nil
        switch (prompt, answer) {
        case let (.passkey(peer), .passkey(n)):
            send(.userPasskey(n, peer, index: configuration.index), at: now, waitForAnswer: false)
        case let (.passkey(peer), _):
            send(.userPasskey(nil, peer, index: configuration.index), at: now, waitForAnswer: false)
        case let (.confirm(peer), .numbersMatch(yes)):
            send(.userConfirmation(yes, peer, index: configuration.index), at: now, waitForAnswer: false)
        case let (.confirm(peer), _):
            send(.userConfirmation(false, peer, index: configuration.index), at: now, waitForAnswer: false)
        }
    }

    /// Pairs the link's peer through the kernel (Pair Device); `need.fresh` forgets the kernel's
    /// bond first (Unpair Device) so that a new pairing runs.
    public func secure(_ link: LinkID, _ need: SecurityNeed, at now: HostTime) {
        guard hasSocket(link), let record = linkTable.record(link) else {
            deliver(.security(link, .failed(.unavailable(linkTable.notConnectedReason(link)))))
            return
        }
        let peer = record.peer
        if !need.fresh, let level = record.kernelSecurity.level, level >= need.level {
            deliver(.security(link, .encrypted(level: level, keySize: security.keys[peer]?.keySize ?? 16, withBond: true)))
            return
        }
        if need.fresh { send(.unpairDevice(peer, index: configuration.index), at: now, waitForAnswer: false) }
        record.kernelSecurity.pairing = peer
        deliver(.security(link, .pairingStarted(need)))
        send(.pairDevice(peer, ioCapability: configuration.ioCapability ?? .keyboardDisplay, index: configuration.index),
             at: now, waitForAnswer: false)
    }

    /// The kernel keeps the bonds of this backend.
    public var bonds: [BondRecord] { [] }
}
