import Wire

/// The host-wide half of security that every link's `LinkSecurity` uses: the settings, the
/// bonds, the repeated-attempts throttle and the crypto.
struct SecurityContext {
    var settings: SecuritySettings
    var bonds: BondTable
    var throttle: PairingThrottle

    init(settings: SecuritySettings) {
        self.settings = settings
        bonds = BondTable(settings.bonds)
        throttle = settings.throttle
    }

    var crypto: (any SecurityCryptography)? { settings.crypto }
}

/// What a link's security asks of its connector, pulled with `LinkSecurity.pollAction`.
enum LinkSecurityAction {
    /// An SMP PDU for CID 0x0006.
    case sendSMP(SMPPDU)
    /// HCI LE Enable Encryption with this key; answer with `encryptionChanged` /
    /// `encryptionFailed`.
    case encrypt(LinkEncryptionKey)
    case event(SecurityEvent)
    /// The plan may run now; `trustCache` false when the bond did not hold, so a cached
    /// database must not be trusted (the peer may not be who it was).
    case releasePlan(trustCache: Bool)
    /// The ATT request waiting for security may go again (true) or fails with its error.
    case resumeRequest(Bool)
    /// The link cannot reach the level it must have: close it.
    case close(SecurityFailure)
}

/// One link's security, sans-I/O (Docs/security.md, "How the host drives it"): what the link
/// has (level, key size, bond), who waits for more (the plan, an ATT request, the application,
/// the peer's Security Request), and the work under way to get it — encrypting with a bond's
/// key, or pairing (`PairingInitiator`). Inputs carry their time; outputs are pulled.
///
/// ```
/// idle ──need──► bond fits? ──yes──► encrypting(bond key) ──Encryption Change──► idle (need met)
///                   │ no                   └── PIN or Key Missing ──► bond removed, pair if the need stays
///                   ▼
///               pairing ── paired (bond stored) ──► idle (need met)
///                   └── failed ──► waiters fail: plan released (or link closed if it must be secure),
///                                  ATT request fails with its error
/// ```
struct LinkSecurity {
    /// rtstack's and the peer's addresses on this connection (ia/ra of pairing).
    let local: DeviceAddress
    let peer: DeviceAddress
    /// The peer's bond, if any (found at connection, or made by pairing on this link).
    private(set) var bond: BondRecord?
    private(set) var level: SecurityLevel = .low
    private(set) var keySize: UInt8 = 0

    enum Work {
        case idle
        /// LE Enable Encryption with a bond's key is under way.
        case encrypting(LinkEncryptionKey)
        case pairing
    }

    private(set) var work: Work = .idle
    /// The current (or last) pairing; also answers stray SMP PDUs while idle.
    private var smp: PairingInitiator?
    /// The bond's key was tried on this link (it is not tried twice).
    private var bondTried = false
    /// A pairing completed on this link (what `fresh` needs), and its result.
    private var pairedHere: Bool { pairing != nil }
    private var pairing: PairingResult?

    /// Who waits, and for what.
    private var gate: (need: SecurityNeed, strict: Bool)?
    private var request: SecurityNeed?
    private var application: SecurityNeed?
    private var peerRequest: SecurityNeed?

    private var actions = PullQueue<LinkSecurityAction>(capacity: 4)
    /// A pairing whose last PDUs (rtstack's own keys) are not yet delivered: the peer counts
    /// the pairing complete only once it has them, so nothing is told before the controller
    /// reports them sent (a disconnection right after would lose the peer's bond).
    private var pendingPairing: PairingResult?
    /// PDUs were queued by the drain in progress.
    private var sentInDrain = false

    /// rtstack's last key distribution PDUs wait for `delivered`.
    var awaitsDelivery: Bool { pendingPairing != nil }

    init(local: DeviceAddress, peer: DeviceAddress, bond: BondRecord?) {
        self.local = local
        self.peer = peer
        self.bond = bond
    }

    var isEncrypted: Bool { level > .low }
    /// The link is being encrypted with a bond's key (nothing else runs first).
    var encryptsAtOnce: Bool {
        if case .encrypting = work { return true }
        return false
    }
    /// The key size of the key being applied, for a controller that cannot say.
    private(set) var expectedKeySize: UInt8 = 16

    var nextDeadline: HostTime? { smp?.nextDeadline }

    /// The throttle's key: the identity the bond knows, else the connection's address.
    private var throttleKey: DeviceAddress { bond?.address ?? peer }

    mutating func pollAction() -> LinkSecurityAction? {
        actions.pop()
    }

    // MARK: Needs

    /// The link came up: does its plan wait? It waits while a bonded peer is re-encrypted
    /// (so its cached database is trusted only on an authenticated link), and while a link
    /// that must reach `required` gets there. Returns whether the plan is held.
    mutating func begin(required: SecurityLevel, context ctx: inout SecurityContext, at now: HostTime) -> Bool {
        var need: SecurityNeed?
        if required > .low { need = SecurityNeed(level: required) }
        if let b = bond, b.pairing.longTermKey != nil {
            let bondLevel = b.pairing.securityLevel
            need = SecurityNeed(level: max(need?.level ?? bondLevel, bondLevel))
        }
        guard let need else { return false }
        gate = (need, required > .low)
        advance(&ctx, at: now)
        return true
    }

    /// The application wants `need` (`rtstack pair`).
    mutating func applicationWants(_ need: SecurityNeed, context ctx: inout SecurityContext, at now: HostTime) {
        if met(need) {
            // Already there (the peer's Security Request, or the level the link had to have,
            // may have paired first): say so, with the pairing when one ran on this link.
            if let p = pairing { emit(.paired(p)) }
            emit(.encrypted(level: level, keySize: keySize, withBond: !pairedHere))
            return
        }
        application = need
        advance(&ctx, at: now)
    }

    /// An ATT request was refused with `error`; true when security will be raised and
    /// `resumeRequest` follows, false when nothing higher can be had (the request fails now).
    mutating func requestRefused(_ error: ATTErrorCode, context ctx: inout SecurityContext, at now: HostTime) -> Bool {
        guard ctx.settings.automatic, request == nil,
              let need = SecurityNeed.after(error, level: level, keySize: keySize) else { return false }
        request = need
        advance(&ctx, at: now)
        return true
    }

    // MARK: Inputs

    /// A frame on the Security Manager channel.
    mutating func received(_ bytes: ArraySlice<UInt8>, context ctx: inout SecurityContext, at now: HostTime) {
        if smp == nil { smp = makeInitiator(level: .medium, ctx) }
        smp?.receive(bytes, at: now)
        drainPairing(&ctx, at: now)
    }

    /// Encryption Change (or Key Refresh Complete) with success, with the key size in use when
    /// the event carried it; nil while Read Encryption Key Size asks (`encryptionKeySizeRead`
    /// follows). A pairing takes the peer's keys from now on, whatever is still pending.
    mutating func encryptionChanged(keySize size: UInt8?, context ctx: inout SecurityContext, at now: HostTime) {
        if case .pairing = work {
            smp?.encryptionChanged(keySize: size, at: now)
            drainPairing(&ctx, at: now)
            return
        }
        if let size { encryptionKeySizeRead(size, context: &ctx, at: now) }
    }

    /// The key size the controller encrypted with, after `encryptionChanged(keySize: nil)`.
    mutating func encryptionKeySizeRead(_ size: UInt8, context ctx: inout SecurityContext, at now: HostTime) {
        switch work {
        case .pairing:
            smp?.encryptionKeySizeRead(size, at: now)
            drainPairing(&ctx, at: now)
        case let .encrypting(key):
            work = .idle
            guard let b = bond, size >= key.keySize else {
                return workFailed(.keySize(size, needed: key.keySize), &ctx, at: now, bondFailed: true)
            }
            level = SecurityLevel.of(authenticated: b.pairing.authenticated, secureConnections: b.pairing.secureConnections,
                                     keySize: size)
            keySize = size
            emit(.encrypted(level: level, keySize: size, withBond: true))
            advance(&ctx, at: now)
        case .idle:
            break
        }
    }

    /// Encryption could not be started or refreshed.
    mutating func encryptionFailed(_ status: HCIStatus, context ctx: inout SecurityContext, at now: HostTime) {
        switch work {
        case .pairing:
            smp?.encryptionFailed(status: status, at: now)
            drainPairing(&ctx, at: now)
        case .encrypting:
            work = .idle
            workFailed(status == .pinOrKeyMissing ? .keyMissing : .encryption(status), &ctx, at: now, bondFailed: true)
        case .idle:
            break
        }
    }

    mutating func answer(_ answer: PairingAnswer, context ctx: inout SecurityContext, at now: HostTime) {
        guard case .pairing = work else { return }
        switch answer {
        case let .passkey(n): smp?.enterPasskey(n, at: now)
        case .rejectPasskey: smp?.rejectPasskey(at: now)
        case let .numbersMatch(yes): smp?.confirmNumericComparison(yes, at: now)
        }
        drainPairing(&ctx, at: now)
    }

    /// The SMP timer.
    mutating func advanceTime(to now: HostTime, context ctx: inout SecurityContext) {
        smp?.advanceTime(to: now)
        drainPairing(&ctx, at: now)
    }

    /// The controller has sent every SMP PDU queued on the link (Number Of Completed Packets).
    mutating func delivered(context ctx: inout SecurityContext, at now: HostTime) {
        guard let result = pendingPairing else { return }
        pendingPairing = nil
        pairingComplete(result, &ctx, at: now)
    }

    /// The connection ended: nothing more happens on this link.
    mutating func linkDown() {
        pendingPairing = nil
        smp?.linkDown()
        smp = nil
        work = .idle
        gate = nil
        request = nil
        application = nil
        peerRequest = nil
        actions.removeAll()
    }

    // MARK: Reaching the need

    private func met(_ need: SecurityNeed) -> Bool {
        level >= need.level && keySize >= (need.level > .low ? need.keySize : 0) && (!need.fresh || pairedHere)
    }

    /// Releases the waiters whose need is met, then starts what the rest need.
    private mutating func advance(_ ctx: inout SecurityContext, at now: HostTime) {
        if let g = gate, met(g.need) { gate = nil; actions.append(.releasePlan(trustCache: true)) }
        if let r = request, met(r) { request = nil; actions.append(.resumeRequest(true)) }
        if let a = application, met(a) { application = nil }
        if let p = peerRequest, met(p) { peerRequest = nil }
        guard case .idle = work else { return }
        let needs = [gate?.need, request, application, peerRequest].compactMap { $0 }
        guard let first = needs.first else { return }
        let need = needs.dropFirst().reduce(first) { a, b in
            SecurityNeed(level: max(a.level, b.level), keySize: max(a.keySize, b.keySize), fresh: a.fresh || b.fresh)
        }
        if !need.fresh, !bondTried, let b = bond, let key = b.pairing.longTermKey,
           b.pairing.securityLevel >= need.level, b.pairing.keySize >= need.keySize {
            bondTried = true
            work = .encrypting(key)
            expectedKeySize = key.keySize
            actions.append(.encrypt(key))
            return
        }
        guard ctx.crypto != nil else {
            return workFailed(.unavailable("rtstack was built or configured without pairing"), &ctx, at: now)
        }
        if smp?.error == .timeout {
            return workFailed(.unavailable("the SMP timer expired on this link; no more pairing until it reconnects"),
                              &ctx, at: now)
        }
        var p = makeInitiator(level: max(need.level, .medium), ctx)
        work = .pairing
        emit(.pairingStarted(need))
        p.start(at: now, throttledUntil: ctx.throttle.retryAt(throttleKey, now: now))
        smp = p
        drainPairing(&ctx, at: now)
    }

    private func makeInitiator(level: SecurityLevel, _ ctx: SecurityContext) -> PairingInitiator {
        var configuration = ctx.settings.pairing
        configuration.securityLevel = level
        if var identity = configuration.localIdentity, identity.address.address == .zero {
            // The identity is the address rtstack uses (its random static or public address).
            identity.address = local
            configuration.localIdentity = identity
        }
        return PairingInitiator(configuration: configuration, localAddress: local, peerAddress: peer,
                                crypto: ctx.crypto ?? NoCryptography())
    }

    /// Hands on what the pairing said.
    private mutating func drainPairing(_ ctx: inout SecurityContext, at now: HostTime) {
        guard var p = smp else { return }
        var events: [PairingEvent] = []
        sentInDrain = false
        while true {
            var progressed = false
            while let pdu = p.pollTransmit() { actions.append(.sendSMP(pdu)); progressed = true; sentInDrain = true }
            while let e = p.pollEvent() { events.append(e); progressed = true }
            if !progressed { break }
        }
        smp = p
        for e in events { pairingEvent(e, &ctx, at: now) }
    }

    private mutating func pairingEvent(_ event: PairingEvent, _ ctx: inout SecurityContext, at now: HostTime) {
        switch event {
        case let .securityRequested(authReq):
            // §2.4.6: the central encrypts with a bond that meets the request, else pairs.
            let mitm = authReq.contains(.mitm) && ctx.settings.pairing.ioCapability != .noInputNoOutput
            peerRequest = SecurityNeed(level: mitm ? .high : .medium)
            advance(&ctx, at: now)
        case .passkeyRequested:
            emit(.prompt(.enterPasskey))
        case let .displayPasskey(n):
            emit(.prompt(.displayPasskey(n)))
        case let .confirmNumber(n):
            emit(.prompt(.confirmNumber(n)))
        case .peerKeypress:
            break
        case let .startEncryption(key):
            expectedKeySize = key.keySize
            actions.append(.encrypt(key))
        case let .paired(result):
            if sentInDrain {
                pendingPairing = result
                return
            }
            pairingComplete(result, &ctx, at: now)
        case let .failed(error):
            guard case .pairing = work else { return }
            work = .idle
            ctx.throttle.record(.failure(error), for: throttleKey, at: now)
            workFailed(.pairing(error), &ctx, at: now)
        }
    }

    private mutating func pairingComplete(_ result: PairingResult, _ ctx: inout SecurityContext, at now: HostTime) {
        work = .idle
        pairing = result
        bondTried = true
        level = result.securityLevel
        keySize = result.keySize
        ctx.throttle.record(.success(result), for: throttleKey, at: now)
        emit(.paired(result))
        emit(.encrypted(level: level, keySize: keySize, withBond: false))
        if result.bonded, result.longTermKey != nil {
            let record = BondRecord(pairing: result)
            ctx.bonds.store(record)
            bond = record
            emit(.bondStored(record))
            }
            advance(&ctx, at: now)
    }

    /// The work failed: a bond that the peer lost is removed and pairing may follow; else
    /// everyone waiting is told.
    private mutating func workFailed(_ failure: SecurityFailure, _ ctx: inout SecurityContext, at now: HostTime,
                                     bondFailed: Bool = false) {
        emit(.failed(failure))
        if bondFailed, failure == .keyMissing, let b = bond {
            ctx.bonds.remove(b.address)
            bond = nil
            emit(.bondRemoved(b.address))
            if let g = gate, !g.strict {
                // The link did not have to be secure: it goes on, without trusting what the
                // bond vouched for.
                gate = nil
                actions.append(.releasePlan(trustCache: false))
            }
            advance(&ctx, at: now)
            return
        }
        if let g = gate {
            gate = nil
            actions.append(g.strict ? .close(failure) : .releasePlan(trustCache: !bondFailed))
        }
        if request != nil {
            request = nil
            actions.append(.resumeRequest(false))
        }
        application = nil
        peerRequest = nil
    }

    private mutating func emit(_ event: SecurityEvent) {
        actions.append(.event(event))
    }
}

/// Stands in for crypto where rtstack pairs without any: every operation fails, and
/// `LinkSecurity` never starts a pairing with it (it only answers stray SMP PDUs).
struct NoCryptography: SecurityCryptography {
    func encrypt(key: UInt128, block: UInt128) -> UInt128 { 0 }
    func cmac(key: UInt128, message: [UInt8]) -> UInt128 { 0 }
    func publicKey(of privateKey: P256PrivateKey) -> SMPPublicKey? { nil }
    func isValidPublicKey(_ key: SMPPublicKey) -> Bool { false }
    func dhKey(privateKey: P256PrivateKey, peer: SMPPublicKey) -> [UInt8]? { nil }
    mutating func randomBytes(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }
}
