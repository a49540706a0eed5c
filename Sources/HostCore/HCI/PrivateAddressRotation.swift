import Wire

/// rtstack's own resolvable private address (Core Spec v5.4 Vol 6, Part B, §1.3.2.2): how one
/// is made from the local IRK, and when the next one is due. A value the host drives
/// (HCIHost+OwnAddress): it says when a rotation is wanted; the host decides when the
/// controller may take it (never while scanning or initiating, Vol 4, Part E, §7.8.4).
struct PrivateAddressRotation {
    enum Phase: Equatable {
        /// The current address is in use until `dueAt`.
        case idle
        /// A new address is wanted: the scan pauses and no create starts until it is set.
        case due
        /// LE Set Random Address with this address is at the controller.
        case setting(BDAddress)
    }

    let irk: UInt128
    let interval: HostTime
    /// Its own copy, for the random bits: `randomBytes` is mutating, and the settings' copy is
    /// shared by every link's pairing.
    private var crypto: any SecurityCryptography
    private(set) var phase: Phase = .idle
    /// When the next address is due; nil until the controller is ready.
    private(set) var dueAt: HostTime?

    /// Nil unless `configuration` asks for a resolvable private own address and has both a
    /// local IRK and crypto (bring-up then fails, saying so).
    init?(_ configuration: HostConfiguration) {
        guard case let .resolvablePrivate(rotation) = configuration.ownAddress,
              let irk = configuration.security.pairing.localIdentity?.irk,
              let crypto = configuration.security.crypto else { return nil }
        self.irk = irk
        interval = max(rotation, HostDuration.seconds(1))
        self.crypto = crypto
    }

    /// A fresh address: prand is 0b01 then 22 random bits, neither all 0 nor all 1; hash is
    /// ah(IRK, prand); the address is prand ‖ hash. Nil when the random source gives only
    /// forbidden values (a broken source; eight draws make it vanishingly unlikely otherwise).
    mutating func makeAddress() -> BDAddress? {
        for _ in 0..<8 {
            let random = crypto.randomBytes(3).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x3F_FFFF
            guard random != 0, random != 0x3F_FFFF else { continue }
            let prand = 0x40_0000 | random
            return BDAddress(value: UInt64(prand) << 24 | UInt64(crypto.ah(irk: irk, prand: prand)))
        }
        return nil
    }

    /// Holds the scan and the initiator for the controller.
    var isRotating: Bool { phase != .idle }

    /// The rotation timer, while it runs (a due rotation waits for the controller, not time).
    var nextDeadline: HostTime? { phase == .idle ? dueAt : nil }

    /// The controller is ready with a fresh address: the next one is due an interval later.
    mutating func started(at now: HostTime) {
        phase = .idle
        dueAt = now &+ interval
    }

    mutating func advanceTime(to now: HostTime) {
        if phase == .idle, let d = dueAt, d <= now { phase = .due }
    }

    mutating func sending(_ address: BDAddress) {
        phase = .setting(address)
    }

    /// The address being set, once its answer came; the next rotation is an interval away
    /// (after a refusal too: the old address stays until then, rather than a retry loop).
    mutating func answered(at now: HostTime) -> BDAddress? {
        guard case let .setting(address) = phase else { return nil }
        started(at: now)
        return address
    }

    /// The controller was reset: bring-up sets a fresh address.
    mutating func controllerReset() {
        phase = .idle
        dueAt = nil
    }
}
