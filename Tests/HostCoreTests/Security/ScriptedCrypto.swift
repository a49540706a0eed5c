import HostCore
import SecurityCrypto
import TestSupport
import Wire

/// Nettle's crypto with random numbers from a script, then from a seeded generator: a pairing
/// replays the same bytes every run, and the specification's sample nonces and keys can be
/// put in.
struct ScriptedCrypto: SecurityCryptography {
    let real = NettleCryptography()
    var script: [[UInt8]]
    var rng: SplitMix64

    init(script: [[UInt8]] = [], seed: UInt64 = 0x5EC) {
        self.script = script
        rng = SplitMix64(state: seed)
    }

    func encrypt(key: UInt128, block: UInt128) -> UInt128 { real.encrypt(key: key, block: block) }
    func cmac(key: UInt128, message: [UInt8]) -> UInt128 { real.cmac(key: key, message: message) }
    func publicKey(of privateKey: P256PrivateKey) -> SMPPublicKey? { real.publicKey(of: privateKey) }
    func isValidPublicKey(_ key: SMPPublicKey) -> Bool { real.isValidPublicKey(key) }
    func dhKey(privateKey: P256PrivateKey, peer: SMPPublicKey) -> [UInt8]? { real.dhKey(privateKey: privateKey, peer: peer) }

    mutating func randomBytes(_ count: Int) -> [UInt8] {
        if let next = script.first, next.count == count {
            script.removeFirst()
            return next
        }
        return rng.bytes(count)
    }
}
