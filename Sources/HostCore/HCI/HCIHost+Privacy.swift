import Wire

/// Privacy on the HCI backend (Docs/security.md): bonded peers that advertise with resolvable
/// private addresses are recognised — by the controller's resolving list where the controller
/// has one (loaded at bring-up with the bonds that have an IRK), else by `ah` in software on
/// every advertising report — so that the application and `--heart ADDRESS` see and ask for
/// the identity address; a link to an identity is created to the controller's identity
/// address type, or to the RPA the peer was last seen with.
extension HCIHost {
    /// After bring-up: the resolving list, when the controller has LL Privacy (LE feature
    /// bit 6) and the commands, and there are bonds with an IRK. Each entry is put in Device
    /// Privacy Mode (§7.8.77), so a peer that advertises with its identity address is still
    /// reported; without LE Set Privacy Mode the list stays unused (Network Privacy Mode would
    /// hide such peers) and software resolution does it all.
    func setUpResolvingList() {
        resolver.listed = []
        resolver.controllerResolves = []
        let bonds = securityContext.bonds.bonds.filter { $0.pairing.identityResolvingKey != nil }
        guard !bonds.isEmpty, let info = controllerInfo, info.leFeatures & LEFeatureSet.llPrivacy.rawValue != 0,
              [LEClearResolvingList.opcode, LEAddDeviceToResolvingList.opcode, LESetPrivacyMode.opcode,
               LESetAddressResolutionEnable.opcode].allSatisfy(controllerSupports) else { return }
        let localIRK = configuration.security.pairing.localIdentity?.irk ?? 0
        send(LEClearResolvingList(), purpose: .privacy)
        // At most 8 entries, the smallest list controllers have; the others resolve in software.
        for b in bonds.prefix(8) {
            guard let irk = b.pairing.identityResolvingKey else { continue }
            send(LEAddDeviceToResolvingList(peerIdentity: b.address, peerIRK: irk, localIRK: localIRK), purpose: .privacy)
            send(LESetPrivacyMode(peerIdentity: b.address, devicePrivacy: true), purpose: .privacy)
            resolver.listed.insert(b.address)
        }
        send(LESetAddressResolutionEnable(enable: true), purpose: .privacy)
    }

    /// Answers of the resolving-list commands. The list is used once LE Set Address Resolution
    /// Enable succeeded; any failure before switches resolution off again (an entry left in
    /// Network Privacy Mode would hide a peer that advertises with its identity) and leaves
    /// it to the host.
    func privacyAnswered(_ answer: CommandAnswer, at now: HostTime) {
        guard !resolver.listed.isEmpty else { return }
        if answer.status.isSuccess {
            if answer.command.opcode == LESetAddressResolutionEnable.opcode { resolver.controllerResolves = resolver.listed }
            return
        }
        resolver.listed = []
        resolver.controllerResolves = []
        warn("\(answer.command.opcode.name) failed: \(answer.status); resolving private addresses in software")
        send(LESetAddressResolutionEnable(enable: false), purpose: .privacy)
    }

    /// An advertising report as the application sees it: an identity address the controller
    /// resolved (type 0x02/0x03) as the identity, an RPA a bond's IRK resolves as that identity.
    /// Links waiting for their peer's address connect when it advertises.
    func reportWithIdentity(_ report: AdvertisementReport, at now: HostTime) -> AdvertisementReport {
        // The common case costs three comparisons: nothing to resolve without bonds.
        if securityContext.bonds.bonds.isEmpty && report.address.type.rawValue < 2 && !waitsForAnyAddress { return report }
        var r = report
        switch report.address.type {
        case .publicIdentity, .randomIdentity:
            r.address = DeviceAddress(report.address.address, type: report.address.type.isRandom ? .randomDevice : .publicDevice)
            r.isResolved = true
        case .randomDevice:
            if let identity = resolver.identity(of: report.address, bonds: securityContext.bonds,
                                                crypto: securityContext.crypto) {
                r.address = identity
                r.resolvedFrom = report.address
                r.isResolved = true
            }
        case .publicDevice:
            break
        }
        if report.connectable, waitsForAnyAddress { addressSeen(r.address, advertisedAs: report.address, at: now) }
        return r
    }

    /// A link to a bonded identity that only resolution finds (an IRK, no controller resolving
    /// list, no RPA seen yet) waits for the peer's advertising, scanned for by the host.
    func waitsForAddress(_ id: LinkID, _ record: LinkRecord, at now: HostTime) -> Bool {
        let peer = record.peer
        guard !resolver.controllerResolves.contains(peer), resolver.lastSeen[peer] == nil,
              securityContext.crypto != nil,
              securityContext.bonds.bonds.contains(where: { $0.address == peer && $0.pairing.identityResolvingKey != nil })
        else { return false }
        linkTable.attemptStarted(id, waitingFor: .address(until: now &+ record.plan.connectTimeout), at: now)
        // The schedule, which asked for this attempt, goes on: it now scans for the peer.
        return true
    }

    /// `identity` advertised (as `address`: itself, or an RPA): its waiting links connect now.
    func addressSeen(_ identity: DeviceAddress, advertisedAs address: DeviceAddress, at now: HostTime) {
        let waiting = linkTable.attempts(where: Self.isAddressWait).filter { $0.peer == identity }
        guard !waiting.isEmpty else { return }
        if address == identity { resolver.seen(identity) }
        for record in waiting.reversed() {
            // The attempt goes on at the controller, before the queued links.
            linkTable.attemptStarted(record.id, waitingFor: .controllerTurn, at: now)
        }
        runSchedule(at: now)
    }

    /// Links that waited for their peer's address until their connect timeout.
    func addressTimers(at now: HostTime) {
        for record in linkTable.attempts(where: Self.isAddressWait) {
            guard case let .address(until)? = record.phase.attempt, until <= now else { continue }
            linkTable.attemptFailed(record.id, error: .connectTimeout(record.peer), at: now)
        }
    }

    /// Whether a link waits for its peer's current address (the host then scans for it).
    var waitsForAnyAddress: Bool { linkTable.hasAttempt(where: Self.isAddressWait) }

    static func isAddressWait(_ wait: AttemptWait) -> Bool {
        if case .address = wait { return true }
        return false
    }

    /// Where LE Create Connection goes for a link to `peer`: an identity in the controller's
    /// resolving list as an identity address type (the controller finds its RPA); a bonded
    /// identity to the address it was last seen with; anything else as it is.
    func connectionTarget(_ peer: DeviceAddress) -> DeviceAddress {
        if resolver.controllerResolves.contains(peer) {
            return DeviceAddress(peer.address, type: peer.type.isRandom ? .randomIdentity : .publicIdentity)
        }
        return resolver.lastSeen[peer] ?? peer
    }

    /// An attempt ran out of time: the peer may have moved to a new RPA, so the next attempt
    /// waits for it to be seen again.
    func attemptTimedOut(_ id: LinkID) {
        if let peer = linkTable.record(id)?.peer { resolver.forget(peer) }
    }
}
