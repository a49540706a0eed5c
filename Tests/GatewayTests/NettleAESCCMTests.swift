import Glibc
import Testing
import TestSupport
import Sensors
import Wire
@testable import Gateway

@Suite struct NettleAESCCMTests {
    static var cipher: NettleAESCCM? { NettleAESCCM() }

    /// bthome.io/encryption's example: key 231d39c1…, MAC 54:48:E6:8F:80:A5, counter 00112233,
    /// plaintext 02CA09 03BF13; ciphertext a47266c95f73 and MIC 78237214 as Python
    /// cryptography's AESCCM computes them (v2 has no 0x11 header; bthome-ble's older test
    /// vectors, MIC b7ced8e5, still had it — that one must not verify).
    @Test func theBTHomeExampleDecrypts() throws {
        let cipher = try #require(Self.cipher)
        let key = Hex.parse("23 1d 39 c1 d7 cc 1a b1 ae e2 24 cd 09 6d b9 32")!
        let address = try #require(BDAddress(string: "54:48:E6:8F:80:A5"))
        let ad = BTHomeAdvertisement(serviceData: Hex.parse("41 a4 72 66 c9 5f 73 00 11 22 33 78 23 72 14")!)
        let plain = ad.decrypting(key: key, address: address, cipher: cipher)
        #expect(plain.issue == nil)
        #expect(PassiveAdvertisement.bthome(plain).quantities.map(\.text) == ["25.06 °C", "50.55 %"])
        let withV1Header = BTHomeAdvertisement(serviceData: Hex.parse("41 a4 72 66 c9 5f 73 00 11 22 33 b7 ce d8 e5")!)
        #expect(withV1Header.decrypting(key: key, address: address, cipher: cipher).issue == .decryptionFailed)
        // And the other way: encrypting the plaintext gives the example's octets.
        let nonce = try #require(ad.nonce(address: address))
        let sealed = try #require(cipher.encrypt(key: key, nonce: nonce, plaintext: Hex.parse("02 CA 09 03 BF 13")!))
        #expect(sealed.ciphertext == Hex.parse("a4 72 66 c9 5f 73") && sealed.tag == Hex.parse("78 23 72 14"))
    }

    @Test func aWrongKeyOrATamperedOctetIsRefused() throws {
        let cipher = try #require(Self.cipher)
        let key = Hex.parse("23 1d 39 c1 d7 cc 1a b1 ae e2 24 cd 09 6d b9 32")!
        let address = try #require(BDAddress(string: "54:48:E6:8F:80:A5"))
        var bytes = Hex.parse("41 a4 72 66 c9 5f 73 00 11 22 33 78 23 72 14")!
        var wrongKey = key
        wrongKey[0] ^= 1
        #expect(BTHomeAdvertisement(serviceData: bytes).decrypting(key: wrongKey, address: address, cipher: cipher).issue == .decryptionFailed)
        for i in 1..<bytes.count {
            bytes[i] ^= 0x80
            #expect(BTHomeAdvertisement(serviceData: bytes).decrypting(key: key, address: address, cipher: cipher).issue == .decryptionFailed, "octet \(i)")
            bytes[i] ^= 0x80
        }
        // The wrong address is a wrong nonce.
        let other = try #require(BDAddress(string: "54:48:E6:8F:80:A6"))
        #expect(BTHomeAdvertisement(serviceData: bytes).decrypting(key: key, address: other, cipher: cipher).issue == .decryptionFailed)
    }

    @Test func roundTripsOfRandomPayloads() throws {
        let cipher = try #require(Self.cipher)
        var rng = SystemRandomNumberGenerator()
        for n in 1...40 {
            let key = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let nonce = (0..<13).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let plain = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let sealed = try #require(cipher.encrypt(key: key, nonce: nonce, plaintext: plain))
            #expect(cipher.decrypt(key: key, nonce: nonce, ciphertext: sealed.ciphertext[...], tag: sealed.tag[...]) == plain)
        }
    }
}

/// The same AES-CCM through a second implementation: Python's `cryptography` package in the
/// Bumble world's venv (`scripts/world setup` makes it).
@Suite(.enabled(if: PythonCryptography.python != nil, "needs the world venv's Python with cryptography (scripts/world setup)"))
struct AESCCMAgainstPythonTests {
    @Test func randomMessagesAgree() throws {
        let cipher = NettleAESCCM()
        let python = try #require(PythonCryptography.python)
        var rng = SplitMix64(seed: 0xCC11)
        var script = "from cryptography.hazmat.primitives.ciphers.aead import AESCCM\n"
        var expected: [String] = []
        for n in 1...20 {
            let key = rng.bytes(16), nonce = rng.bytes(13), plain = rng.bytes(n)
            let sealed = try #require(cipher.encrypt(key: key, nonce: nonce, plaintext: plain))
            expected.append(Hex.string(sealed.ciphertext + sealed.tag))
            script += "print(AESCCM(bytes.fromhex('\(Hex.string(key))'), tag_length=4).encrypt(bytes.fromhex('\(Hex.string(nonce))'), bytes.fromhex('\(Hex.string(plain))'), None).hex())\n"
        }
        let out = try PythonCryptography.run(python, script)
        #expect(out == expected)
    }
}

enum PythonCryptography {
    static var python: String? {
        // #filePath is <package>/Tests/GatewayTests/<this file>.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let p = parts.joined(separator: "/") + "/.venv-world/bin/python"
        return access(p, X_OK) == 0 ? p : nil
    }

    static func run(_ python: String, _ script: String) throws -> [String] {
        let dir = "/tmp/rtstack-ccm-\(getpid())"
        mkdir(dir, 0o700)
        let path = dir + "/check.py"
        guard let f = fopen(path, "w") else { throw ValueProblem("cannot write \(path)") }
        fputs(script, f)
        fclose(f)
        guard let pipe = popen("'\(python)' '\(path)' 2>&1", "r") else { throw ValueProblem("cannot run \(python)") }
        var lines: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var text: [UInt8] = []
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n <= 0 { break }
            text += buffer[0..<n]
        }
        lines = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        pclose(pipe)
        unlink(path)
        rmdir(dir)
        return lines
    }
}
