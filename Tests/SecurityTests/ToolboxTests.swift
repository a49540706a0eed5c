import Testing
import HostCore
import SecurityCrypto
import Wire

/// Bytes written most significant first, as the specification prints its sample data.
func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }
func v128(_ s: String) -> UInt128 { NettleCryptography.value(hx(s)) }

/// The sample data of Core Spec v5.4 Vol 3, Part H, Appendix D (every vector there), the
/// examples of §2.2.3 (c1) and §2.2.4 (s1), and P-256 against the debug key pair and the
/// sample data of Vol 2, Part G, §7.1.2.
@Suite struct ToolboxTests {
    let crypto = NettleCryptography()

    // Appendix D sample inputs.
    static let u = hx("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6")
    static let v = hx("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd")
    static let x = v128("d5cb8454 d177733e ffffb2ec 712baeab")
    static let y = v128("a6e8e7cc 25a75f6e 216583f7 ff3dc4cf")
    static let w = hx("ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698")
    static let a1 = hx("00561237 37bfce")
    static let a2 = hx("00a71370 2dcfc1")

    @Test func aes128FIPS197() {
        // FIPS-197 Appendix C.1.
        #expect(crypto.encrypt(key: v128("000102030405060708090a0b0c0d0e0f"), block: v128("00112233445566778899aabbccddeeff"))
                == v128("69c4e0d86a7b0430d8cdb78070b4c55a"))
    }

    // D.1: AES-CMAC, RFC 4493 test vectors (examples 1–4).
    @Test func d1AESCMAC() {
        let k = v128("2b7e1516 28aed2a6 abf71588 09cf4f3c")
        let m = hx("6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51 30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710")
        #expect(crypto.cmac(key: k, message: []) == v128("bb1d6929 e9593728 7fa37d12 9b756746"))
        #expect(crypto.cmac(key: k, message: Array(m[..<16])) == v128("070a16b4 6b4d4144 f79bdd9d d04a287c"))
        #expect(crypto.cmac(key: k, message: Array(m[..<40])) == v128("dfa66747 de9ae630 30ca3261 1497c827"))
        #expect(crypto.cmac(key: k, message: m) == v128("51f0bebf 7e3b9d92 fc497417 79363cfe"))
    }

    @Test func d2f4() {
        #expect(crypto.f4(u: Self.u, v: Self.v, x: Self.x, z: 0) == v128("f2c916f1 07a9bd1c f1eda1be a974872d"))
    }

    @Test func d3f5() {
        let (macKey, ltk) = crypto.f5(w: Self.w, n1: Self.x, n2: Self.y, a1: Self.a1, a2: Self.a2)
        #expect(macKey == v128("2965f176 a1084a02 fd3f6a20 ce636e20"))
        #expect(ltk == v128("69867911 69d7cd23 980522b5 94750a38"))
        // The intermediate key T of D.3.
        #expect(crypto.cmac(key: v128("6c888391 aaf5a538 60370bdb 5a6083be"), message: Self.w) == v128("3c128f20 de883288 97624bdb 8dac6989"))
    }

    @Test func d4f6() {
        #expect(crypto.f6(w: v128("2965f176 a1084a02 fd3f6a20 ce636e20"), n1: Self.x, n2: Self.y,
                          r: v128("12a3343b b453bb54 08da42d2 0c2d0fc8"), ioCap: 0x010102, a1: Self.a1, a2: Self.a2)
                == v128("e3c47398 9cd0e8c5 d26c0b09 da958f61"))
    }

    @Test func d5g2() {
        let g = crypto.g2(u: Self.u, v: Self.v, x: Self.x, y: Self.y)
        #expect(g == 0x2f9ed5ba)
        // The six digits the users compare.
        #expect(g % 1_000_000 == 938_554)
    }

    @Test func d6h6() {
        #expect(crypto.h6(w: v128("ec0234a3 57c8ad05 341010a6 0a397d9b"), keyID: 0x6c656272) == v128("2d9ae102 e76dc91c e8d3a9e2 80b16399"))
    }

    @Test func d7ah() {
        #expect(crypto.ah(irk: v128("ec0234a3 57c8ad05 341010a6 0a397d9b"), prand: 0x708194) == 0x0dfbaa)
    }

    @Test func d8h7() {
        #expect(crypto.h7(salt: v128("00000000 00000000 00000000 746d7031"), w: v128("ec0234a3 57c8ad05 341010a6 0a397d9b"))
                == v128("fb173597 c6a3c0ec d2998c2a 75a57011"))
    }

    // D.9–D.12: LTK ⇄ BR/EDR link key, with h6 (CT2 = 0) and with h7 (CT2 = 1).
    @Test func d9to12CrossTransport() {
        let tmp1: UInt32 = 0x746d7031, tmp2: UInt32 = 0x746d7032, lebr: UInt32 = 0x6c656272, brle: UInt32 = 0x62726c65
        let ltk = v128("368df9bc e3264b58 bd066c33 334fbf64")
        #expect(crypto.h6(w: crypto.h6(w: ltk, keyID: tmp1), keyID: lebr) == v128("bc1ca4ef 633fc1bd 0d8230af ee388fb0"))
        #expect(crypto.h6(w: crypto.h7(salt: UInt128(tmp1), w: ltk), keyID: lebr) == v128("287ad379 dca40253 0a39f1f4 3047b835"))
        let linkKey = v128("05040302 01000908 07060504 03020100")
        #expect(crypto.h6(w: crypto.h6(w: linkKey, keyID: tmp2), keyID: brle) == v128("a813fb72 f1a3dfa1 8a2c9a43 f10d0a30"))
        #expect(crypto.h6(w: crypto.h7(salt: UInt128(tmp2), w: linkKey), keyID: brle) == v128("e85e09eb 5eccb3e2 69418a13 3211bc79"))
    }

    // §2.2.3: the c1 example, with the Pairing Request and Response as sent.
    @Test func c1Example() throws {
        let preq = try SMPPDU.decode(hx("07071000000101").reversed()).encoded
        let pres = try SMPPDU.decode(hx("05000800000302").reversed()).encoded
        let value = crypto.c1(k: 0, r: v128("5783D521 56AD6F0E 6388274E C6702EE0"), preq: preq, pres: pres,
                              iat: 1, ia: BDAddress(string: "A1:A2:A3:A4:A5:A6")!, rat: 0, ra: BDAddress(string: "B1:B2:B3:B4:B5:B6")!)
        #expect(value == v128("1e1e3fef 878988ea d2a74dc5 bef13b86"))
    }

    // §2.2.4: the s1 example.
    @Test func s1Example() {
        #expect(crypto.s1(k: 0, r1: v128("000F0E0D 0C0B0A09 11223344 55667788"), r2: v128("01020304 05060708 99AABBCC DDEEFF00"))
                == v128("9a1fe1f0 e8b0f49b 5b4216ae 796da062"))
    }

    // §2.3.5.6.1: the debug private key gives the debug public key.
    @Test func debugKeyPair() {
        #expect(crypto.publicKey(of: P256KeyPair.debug.privateKey) == P256KeyPair.debug.publicKey)
        #expect(crypto.isValidPublicKey(P256KeyPair.debug.publicKey))
        #expect("\(P256KeyPair.debug.privateKey)" == "P256PrivateKey(redacted)")
    }

    // Vol 2, Part G, §7.1.2 P-256 data set 1: both sides reach the DHKey of Appendix D (W).
    @Test func p256SampleDHKey() throws {
        let a = P256KeyPair.debug
        let b = try #require(P256PrivateKey(bytes: Self.v))
        let bPublic = try #require(crypto.publicKey(of: b))
        #expect(bPublic.x == hx("1ea1f0f0 1faf1d96 09592284 f19e4c00 47b58afd 8615a69f 559077b2 2faaa190"))
        #expect(bPublic.y == hx("4c55f33e 429dad37 7356703a 9ab85160 472d1130 e28e3676 5f89aff9 15b1214a"))
        #expect(crypto.dhKey(privateKey: a.privateKey, peer: bPublic) == Self.w)
        #expect(crypto.dhKey(privateKey: b, peer: a.publicKey) == Self.w)
    }

    // Invalid-curve points are refused: off the curve, a coordinate ≥ p, all zero.
    @Test func invalidPublicKeysAreRejected() throws {
        let good = P256KeyPair.debug.publicKey
        var y = good.y
        y[31] ^= 1
        let offCurve = try #require(SMPPublicKey(x: good.x, y: y))
        let p = hx("ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff ffffffff")
        let outOfRange = try #require(SMPPublicKey(x: p, y: good.y))
        let zero = try #require(SMPPublicKey(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32)))
        for key in [offCurve, outOfRange, zero] {
            #expect(!crypto.isValidPublicKey(key))
            #expect(crypto.dhKey(privateKey: P256KeyPair.debug.privateKey, peer: key) == nil)
        }
        // Private keys out of range: 0 and n.
        #expect(crypto.publicKey(of: P256PrivateKey(bytes: [UInt8](repeating: 0, count: 32))!) == nil)
        let n = hx("ffffffff 00000000 ffffffff ffffffff bce6faad a7179e84 f3b9cac2 fc632551")
        #expect(crypto.publicKey(of: P256PrivateKey(bytes: n)!) == nil)
    }

    @Test func generatedKeysAgree() {
        var c = crypto
        let a = c.generateKeyPair(), b = c.generateKeyPair()
        #expect(a != b)
        #expect(crypto.isValidPublicKey(a.publicKey))
        let ab = crypto.dhKey(privateKey: a.privateKey, peer: b.publicKey)
        #expect(ab != nil)
        #expect(ab == crypto.dhKey(privateKey: b.privateKey, peer: a.publicKey))
        #expect(c.random128() != c.random128())
    }
}
