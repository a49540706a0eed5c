import Testing
import HostCore
import SecurityCrypto
import Wire

/// Data signing of ATT_SIGNED_WRITE_CMD (Core Spec v5.4 Vol 3, Part H, §2.4.5) with Nettle's
/// AES-CMAC, against the outputs of another implementation: BlueZ's unit/test-crypto.c
/// (`/crypto/sign_att_1…5`, `verify_sign_*`) and the signed PDU of its PTS-derived case
/// `/TP/GAW/CL/BV-02-C` (unit/test-gatt.c). BlueZ writes keys least significant octet first.
@Suite struct ATTSigningTests {
    let crypto = NettleCryptography()

    /// A key as BlueZ's tables write it (least significant octet first), as a number.
    static func key(_ leastSignificantFirst: String) -> UInt128 {
        NettleCryptography.value(hx(leastSignificantFirst).reversed())
    }

    static let bluezKey = key("3c4fcf09 8815f7ab a6d2ae28 16157e2b")
    static let bluezKey5 = key("505E42DF 9691EC72 D31FCDFB EB641B61")

    // sign_att_1…4: messages of 0, 16, 40 and 64 octets, SignCounter 0.
    @Test(arguments: [
        ("", "00000000 b3a85941 27ebc2c0"),
        ("6bc1bee2 2e409f96 e93d7e11 7393172a", "00000000 273974f4 392a232a"),
        ("6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51 30c81c46 a35ce411",
         "00000000 b7ca94ab 87c78218"),
        ("6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51 30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710",
         "00000000 44e1e6ce 1df51368"),
    ])
    func bluezSignAtt(message: String, signature: String) {
        #expect(crypto.attSignature(hx(message), csrk: Self.bluezKey, signCounter: 0) == hx(signature))
    }

    // sign_att_5: a real Signed Write Command (handle 0x0012, value 13 37), SignCounter 1.
    @Test func bluezSignAtt5() {
        let write = crypto.signedWrite(handle: 0x0012, value: [0x13, 0x37], csrk: Self.bluezKey5, signCounter: 1)
        #expect(Array(write.authenticationSignature) == hx("01000000 F1871E93 3C900FF2"))
        #expect(ATTPDU.signedWriteCommand(write).encoded == hx("d2120013 37010000 00F1871E 933C900F f2"))
    }

    // /TP/GAW/CL/BV-02-C: handle 0x0007, value 01 02 03, SignCounter 0, BlueZ's test key.
    @Test func bluezGAWCLBV02C() {
        let write = crypto.signedWrite(handle: 0x0007, value: [1, 2, 3], csrk: Self.key("D8515948 451FEA32 0DC05A2E 88308188"),
                                       signCounter: 0)
        #expect(ATTPDU.signedWriteCommand(write).encoded == hx("d2070001 02030000 0000311f 0acd1c3a 5b0a"))
    }

    // verify_sign_pass / bad_sign / too_short.
    @Test func verifying() throws {
        let pass = try ATTPDU.decode(hx("d2120013 37010000 00F1871E 933C900F f2"))
        let bad = try ATTPDU.decode(hx("d2120013 37010000 00F1871E 933C900F f1"))
        guard case let .signedWriteCommand(good) = pass, case let .signedWriteCommand(wrong) = bad else {
            Issue.record("not signed write commands")
            return
        }
        #expect(crypto.verifiesSignature(of: good, csrk: Self.bluezKey5))
        #expect(!crypto.verifiesSignature(of: wrong, csrk: Self.bluezKey5))
        #expect(!crypto.verifiesSignature(of: good, csrk: Self.bluezKey))
        #expect(throws: WireError.self) { try ATTPDU.decode(hx("d2120013 37")) }
    }

    // The counter is part of what is signed: the same write with the next counter differs.
    @Test func eachCounterSignsDifferently() {
        let a = crypto.signedWrite(handle: 0x0012, value: [1], csrk: Self.bluezKey5, signCounter: 7)
        let b = crypto.signedWrite(handle: 0x0012, value: [1], csrk: Self.bluezKey5, signCounter: 8)
        #expect(Array(a.authenticationSignature.prefix(4)) == [7, 0, 0, 0])
        #expect(Array(b.authenticationSignature.prefix(4)) == [8, 0, 0, 0])
        #expect(a.authenticationSignature.suffix(8) != b.authenticationSignature.suffix(8))
        #expect(crypto.verifiesSignature(of: a, csrk: Self.bluezKey5) && crypto.verifiesSignature(of: b, csrk: Self.bluezKey5))
    }
}
