// Shared by the pairing and host harnesses (compiled into each by scripts/fuzz).
import HostCore
import Wire

/// Stand-in crypto whose AES and CMAC answer 0: every confirm value and DHKey check a pairing
/// expects is then 0, so a fuzzer (or the host harness's well-behaved peer, which sends 0)
/// reaches every state, key distribution included, instead of stopping at the first check.
/// Public keys are valid unless X is all 0xFF. Random numbers count up from 1, so a run is
/// the same every time.
struct ZeroCrypto: SecurityCryptography {
    var counter: UInt8 = 0
    func encrypt(key: UInt128, block: UInt128) -> UInt128 { 0 }
    func cmac(key: UInt128, message: [UInt8]) -> UInt128 { 0 }
    func publicKey(of privateKey: P256PrivateKey) -> SMPPublicKey? {
        SMPPublicKey(x: privateKey.bytes, y: privateKey.bytes)
    }
    func isValidPublicKey(_ key: SMPPublicKey) -> Bool { !key.x.allSatisfy { $0 == 0xFF } }
    func dhKey(privateKey: P256PrivateKey, peer: SMPPublicKey) -> [UInt8]? {
        isValidPublicKey(peer) ? [UInt8](repeating: 0x11, count: 32) : nil
    }
    mutating func randomBytes(_ count: Int) -> [UInt8] {
        counter &+= 1
        return [UInt8](repeating: counter, count: count)
    }
}
