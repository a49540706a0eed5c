import Testing
@testable import HostCore
import Wire

/// Issue 17 §1 through the HCI host: the controller answers Encryption Change v1, the host
/// sends Read Encryption Key Size, and the controller holds that Command Complete (a slow
/// H4 UART, a busy controller) while the peer's keys arrive. Before the fix, the first key
/// met a pairing still "awaiting encryption" and got Pairing Failed (Unspecified Reason).
@Suite struct HostKeyDistributionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var features: SMPPairingFeatures
        var io: SMPIOCapability
        var refusal: ATTErrorCode
        var level: SecurityLevel
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "legacy Just Works (a scale that needs encryption)",
             features: responseFeatures(.noInputNoOutput, [.bonding]), io: .noInputNoOutput,
             refusal: .insufficientEncryption, level: .medium),
        Case(name: "LE Secure Connections Passkey Entry, MITM, IdKey only (a monitor that uses private addresses)",
             features: responseFeatures(.displayOnly, [.bonding, .mitm, .secureConnections], responderKeys: [.identityKey]),
             io: .keyboardDisplay, refusal: .insufficientAuthentication, level: .fips),
    ]

    @Test("the peer's keys before the Command Complete of Read Encryption Key Size are taken; the read succeeds once it comes", arguments: cases)
    func keysBeforeTheKeySize(_ c: Case) throws {
        let (world, p, smp) = HostSecurityTests.world(c.features) { $0.pairing.ioCapability = c.io }
        if c.refusal == .insufficientEncryption {
            smp.untilEncrypted[HostSecurityTests.bodySensorLocation] = c.refusal
        } else {
            smp.untilAuthenticated[HostSecurityTests.bodySensorLocation] = c.refusal
        }
        smp.newConnection()
        world.fake.answers[.readEncryptionKeySize] = .held
        let id = world.connect(p, plan: .noGATT)
        let op = world.perform(.read(handle: HostSecurityTests.bodySensorLocation), on: id)
        var prompts = 0
        HostSecurityTests.answerPrompts(world, id, passkey: smp.passkey, from: &prompts)

        // The keys have come; the key size has not.
        #expect(world.fake.held.map(\.opcode) == [.readEncryptionKeySize])
        #expect(world.fake.securityFailures.isEmpty, "\(world.fake.securityFailures)")
        #expect(!p.otherFrames.contains { $0.0 == 0x0006 && $0.1.first == SMPCode.pairingFailed.rawValue },
                "no Pairing Failed: \(p.otherFrames)")
        #expect(world.fake.result(op) == nil, "the read waits for the pairing")

        world.fake.release(.readEncryptionKeySize)
        world.settle()
        guard case .success(.value([0x01]))? = world.fake.result(op) else {
            Issue.record("\(String(describing: world.fake.result(op))) \(world.fake.securityEvents)")
            return
        }
        #expect(world.fake.encryptedLevels == [c.level])
        let bond = try #require(world.fake.storedBonds.first)
        #expect(bond.address == smp.responder?.identity, "filed under the identity it distributed")
        #expect(bond.pairing.identityResolvingKey == smp.responder?.irk, "the IRK that resolves its private addresses")
        #expect(world.problems.isEmpty, "\(world.problems)")
    }
}
