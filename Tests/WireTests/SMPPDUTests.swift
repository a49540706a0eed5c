import Testing
import TestSupport
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }
/// The specification writes multi-octet values most significant octet first; SMP carries
/// them least significant first.
private func wire(_ msbFirst: String) -> [UInt8] { hx(msbFirst).reversed() }
private func u128(_ msbFirst: String) -> UInt128 {
    hx(msbFirst).reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
}

private func fields(_ pdu: SMPPDU, keys: SMPKeyVisibility = .redacted) -> FieldList {
    var list = FieldList()
    pdu.describeFields(into: &list, keys: keys)
    return list
}

struct SMPVector: Sendable, CustomTestStringConvertible {
    let section: String
    let bytes: [UInt8]
    let pdu: SMPPDU
    var testDescription: String { section }
}

// Debug public key of Core Spec v5.4 Vol 3, Part H, §2.3.5.6.1 (most significant first).
private let debugX = "20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6"
private let debugY = "dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b"

@Suite struct SMPPDUTests {
    static let vectors: [SMPVector] = [
        // preq and pres of the c1 example (Vol 3, Part H, §2.2.3): 0x07071000000101 is a
        // Pairing Request from a DisplayYesNo device, no OOB, AuthReq 0, key size 16, all
        // keys both ways; 0x05000800000302 the NoInputNoOutput response, key size 8,
        // responder keys EncKey and SignKey.
        SMPVector(section: "§2.2.3 preq", bytes: wire("07071000000101"), pdu: .pairingRequest(SMPPairingFeatures(
            ioCapability: .displayYesNo, oobDataFlag: .notPresent, authenticationRequirements: [], maximumEncryptionKeySize: 16,
            initiatorKeyDistribution: [.encryptionKey, .identityKey, .signingKey],
            responderKeyDistribution: [.encryptionKey, .identityKey, .signingKey]))),
        SMPVector(section: "§2.2.3 pres", bytes: wire("05000800000302"), pdu: .pairingResponse(SMPPairingFeatures(
            ioCapability: .noInputNoOutput, oobDataFlag: .notPresent, authenticationRequirements: [], maximumEncryptionKeySize: 8,
            initiatorKeyDistribution: [], responderKeyDistribution: [.encryptionKey, .signingKey]))),
        // f4 sample (Appendix D.2): Ca = f4(PKax, PKbx, Na, 0) as a Pairing Confirm.
        SMPVector(section: "D.2 Ca", bytes: [0x03] + wire("f2c916f1 07a9bd1c f1eda1be a974872d"),
                  pdu: .pairingConfirm(confirmValue: u128("f2c916f1 07a9bd1c f1eda1be a974872d"))),
        // Na of Appendix D.2 as a Pairing Random.
        SMPVector(section: "D.2 Na", bytes: [0x04] + wire("d5cb8454 d177733e ffffb2ec 712baeab"),
                  pdu: .pairingRandom(randomValue: u128("d5cb8454 d177733e ffffb2ec 712baeab"))),
        SMPVector(section: "§3.5.5", bytes: [0x05, 0x04], pdu: .pairingFailed(reason: .confirmValueFailed)),
        // LTK of Appendix D.3 as Encryption Information.
        SMPVector(section: "§3.6.2", bytes: [0x06] + wire("69867911 69d7cd23 980522b5 94750a38"),
                  pdu: .encryptionInformation(longTermKey: u128("69867911 69d7cd23 980522b5 94750a38"))),
        SMPVector(section: "§3.6.3", bytes: hx("07 34 12 88 77 66 55 44 33 22 11"),
                  pdu: .centralIdentification(ediv: 0x1234, rand: 0x1122_3344_5566_7788)),
        // The ah sample IRK (Appendix D.7).
        SMPVector(section: "§3.6.4", bytes: [0x08] + wire("ec0234a3 57c8ad05 341010a6 0a397d9b"),
                  pdu: .identityInformation(identityResolvingKey: u128("ec0234a3 57c8ad05 341010a6 0a397d9b"))),
        SMPVector(section: "§3.6.5", bytes: hx("09 01 a6 a5 a4 a3 a2 c1"),
                  pdu: .identityAddressInformation(SMPIdentityAddress(addressType: 1, address: BDAddress(string: "C1:A2:A3:A4:A5:A6")!))),
        SMPVector(section: "§3.6.6", bytes: [0x0A] + wire("00112233 44556677 8899aabb ccddeeff"),
                  pdu: .signingInformation(signatureKey: u128("00112233 44556677 8899aabb ccddeeff"))),
        // Bonding, MITM, SC: what a Secure-Connections-only peripheral asks for.
        SMPVector(section: "§3.6.7", bytes: hx("0b 0d"), pdu: .securityRequest([.bonding, .mitm, .secureConnections])),
        SMPVector(section: "§3.5.6 debug key", bytes: [0x0C] + wire(debugX) + wire(debugY),
                  pdu: .pairingPublicKey(SMPPublicKey(x: hx(debugX), y: hx(debugY))!)),
        // Ea of Appendix D.4 (f6) as a DHKey Check.
        SMPVector(section: "D.4 Ea", bytes: [0x0D] + wire("e3c47398 9cd0e8c5 d26c0b09 da958f61"),
                  pdu: .pairingDHKeyCheck(u128("e3c47398 9cd0e8c5 d26c0b09 da958f61"))),
        SMPVector(section: "§3.5.8", bytes: hx("0e 01"), pdu: .pairingKeypressNotification(.passkeyDigitEntered)),
    ]

    @Test(arguments: vectors) func decodesAndEncodes(_ v: SMPVector) throws {
        let pdu = try SMPPDU.decode(v.bytes)
        #expect(pdu == v.pdu)
        #expect(pdu.encoded == v.bytes)
        #expect(pdu.code.parameterLength == v.bytes.count - 1)
    }

    @Test(arguments: vectors) func wrongLengthsThrowAndNeverTrap(_ v: SMPVector) {
        // One byte short and one byte long: the Invalid Parameters cases of §3.5.5.
        #expect(throws: WireError.self) { try SMPPDU.decode(Array(v.bytes.dropLast())) }
        #expect(throws: WireError.self) { try SMPPDU.decode(v.bytes + [0]) }
        // Every prefix throws or decodes; none traps.
        for n in 0..<v.bytes.count {
            _ = try? SMPPDU.decode(v.bytes[..<n])
        }
    }

    @Test func emptyAndUnknown() throws {
        #expect(throws: WireError.self) { try SMPPDU.decode([]) }
        let unknown = try SMPPDU.decode(hx("0f 01 02"))
        #expect(unknown == .unknown(code: SMPCode(0x0F), parameters: hx("01 02")[...]))
        #expect(unknown.name == "Unknown")
        #expect(unknown.encoded == hx("0f 01 02"))
    }

    @Test func publicKeyIsHeldMostSignificantFirst() throws {
        let pdu = try SMPPDU.decode([0x0C] + wire(debugX) + wire(debugY))
        guard case let .pairingPublicKey(key) = pdu else { Issue.record("not a public key"); return }
        #expect(key.x == hx(debugX))
        #expect(key.uncompressedPoint == [0x04] + hx(debugX) + hx(debugY))
        #expect(SMPPublicKey(x: hx(debugX), y: []) == nil)
    }

    @Test func pairingFeaturesGiveTheF6IOcap() {
        // IOcap of Appendix D.4 is 0x010102: AuthReq 0x01, OOB 0x01, IO capability 0x02.
        let f = SMPPairingFeatures(ioCapability: .keyboardOnly, oobDataFlag: .present, authenticationRequirements: .bonding,
                                   initiatorKeyDistribution: [], responderKeyDistribution: [])
        #expect(f.ioCap == 0x010102)
    }

    @Test func pairingRequestFieldsNameEverything() throws {
        let pdu = try SMPPDU.decode(hx("01 04 00 2d 10 0f 0f"))
        #expect(pdu.name == "Pairing Request")
        #expect(pdu.code.specIdentifier == "SMP_Pairing_Request")
        let list = fields(pdu)
        #expect(list.value(of: "Code") == "Pairing Request (0x01)")
        #expect(list.value(of: "IO Capability") == "KeyboardDisplay (0x04)")
        #expect(list.value(of: "OOB Data Flag") == "OOB Authentication data not present (0x00)")
        #expect(list.value(of: "AuthReq") == "0x2d (Bonding, MITM, SC, CT2)")
        #expect(list.value(of: "Maximum Encryption Key Size") == "16")
        #expect(list.value(of: "Initiator Key Distribution") == "0x0f (EncKey, IdKey, SignKey, LinkKey)")
        #expect(pdu.summary == "KeyboardDisplay, Bonding, MITM, SC, CT2, key size 16, initiator keys EncKey, IdKey, SignKey, LinkKey, responder keys EncKey, IdKey, SignKey, LinkKey")
        // Reserved values are shown as such, not refused by the decoder.
        let odd = fields(try SMPPDU.decode(hx("02 09 07 c2 06 f0 00")))
        #expect(odd.value(of: "IO Capability") == "Reserved (0x09)")
        #expect(odd.value(of: "OOB Data Flag") == "Reserved (0x07)")
        #expect(odd.value(of: "AuthReq") == "0xc2 (Bonding_Flags 10 (reserved), RFU 0xc0)")
        #expect(odd.value(of: "Maximum Encryption Key Size") == "6 (reserved)")
        #expect(odd.value(of: "Initiator Key Distribution") == "0xf0 (RFU 0xf0)")
        #expect(odd.value(of: "Responder Key Distribution") == "0x00 (none)")
    }

    @Test func pairingFailedReasonsHaveNames() throws {
        let names = (1...15).map { SMPPairingFailedReason(UInt8($0)).name }
        #expect(!names.contains("Reserved"))
        #expect(Set(names).count == 15)
        #expect(SMPPairingFailedReason(0x10).name == "Reserved")
        let list = fields(try SMPPDU.decode(hx("05 0b")))
        #expect(list.value(of: "Reason") == "DHKey Check Failed (0x0b)")
        #expect(try SMPPDU.decode(hx("05 09")).summary == "Repeated Attempts (0x09)")
    }

    @Test func keysAreRedactedUnlessShown() throws {
        let ltk = "69867911 69d7cd23 980522b5 94750a38"
        for (code, label) in [(0x06, "Long Term Key"), (0x08, "Identity Resolving Key"), (0x0A, "Signature Key")] {
            let pdu = try SMPPDU.decode([UInt8(code)] + wire(ltk))
            #expect(pdu.carriesKey)
            let redacted = fields(pdu)
            #expect(redacted.value(of: label) == "(redacted)")
            // Neither the fields nor the summary carry any byte of the key.
            #expect(!redacted.text.string.contains("38 0a"))
            #expect(!pdu.summary.contains("38"))
            var plain = FieldList()
            pdu.describeFields(into: &plain)
            #expect(plain.value(of: label) == "(redacted)", "FieldDescribing's default must redact")
            #expect(fields(pdu, keys: .shown).value(of: label) == "38 0a 75 94 b5 22 05 98 23 cd d7 69 11 79 86 69")
        }
        // Values that are not keys are always shown.
        let random = try SMPPDU.decode([0x04] + wire("d5cb8454 d177733e ffffb2ec 712baeab"))
        #expect(!random.carriesKey)
        #expect(fields(random).value(of: "Random Value") == "ab ae 2b 71 ec b2 ff ff 3e 73 77 d1 54 84 cb d5")
    }

    @Test func otherFieldsAreShown() throws {
        let id = fields(try SMPPDU.decode(hx("07 34 12 88 77 66 55 44 33 22 11")))
        #expect(id.value(of: "EDIV") == "0x1234")
        #expect(id.value(of: "Rand") == "0x1122334455667788")
        let address = try SMPPDU.decode(hx("09 00 66 55 44 33 22 11"))
        #expect(fields(address).value(of: "AddrType") == "Public (0x00)")
        #expect(fields(address).value(of: "BD_ADDR") == "11:22:33:44:55:66")
        #expect(address.summary == "11:22:33:44:55:66 (Public)")
        guard case let .identityAddressInformation(identity) = address else { Issue.record("wrong case"); return }
        #expect(identity.deviceAddress == DeviceAddress(BDAddress(string: "11:22:33:44:55:66")!, type: .publicDevice))
        #expect(SMPIdentityAddress(addressType: 2, address: .zero).deviceAddress == nil)
        #expect(fields(try SMPPDU.decode(hx("0b 01"))).value(of: "AuthReq") == "0x01 (Bonding)")
        #expect(fields(try SMPPDU.decode(hx("0e 04"))).value(of: "Notification Type") == "Passkey Entry Completed (0x04)")
        let key = fields(try SMPPDU.decode([0x0C] + wire(debugX) + wire(debugY)))
        #expect(key.value(of: "Public Key X")?.hasPrefix("e6 9d 35 0e") == true)
    }

    /// Random inputs; a third with a real code and its exact length, a third with a real code
    /// and any length: every input
    /// decodes or throws, and what decodes re-encodes to the same bytes and describes itself.
    @Test func randomBytesNeverCrashSMPDecode() {
        var rng = SplitMix64(state: 0x5E_C0DE)
        var decoded = 0
        var thrown = 0
        for _ in 0..<20_000 {
            var input = rng.bytes(rng.below(70))
            let code = UInt8(1 + rng.below(14))
            switch rng.below(3) {
            case 0: input = [code] + rng.bytes(SMPCode(code).parameterLength ?? 0)
            case 1: input = [code] + rng.bytes(rng.below(70))
            default: break
            }
            do {
                let pdu = try SMPPDU.decode(input)
                decoded += 1
                #expect(pdu.encoded == input, "\(Hex.spaced(input))")
                var list = FieldList()
                pdu.describeFields(into: &list, keys: .shown)
                _ = pdu.summary
            } catch {
                thrown += 1
            }
        }
        #expect(decoded > 5_000)
        #expect(thrown > 4_000)
    }
}
