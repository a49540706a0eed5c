import Testing
import Wire
@testable import HostCore

/// Signed Write Without Response (Core Spec v5.4 Vol 3, Part G, §4.9.2) as the GATT client
/// sends it: a command, sent as Write Without Response on an encrypted link. The signature itself is tested against
/// BlueZ's vectors in SecurityTests (`ATTSigningTests`), where the crypto is.
@Suite struct GATTSignedWriteTests {
    /// An ATT_SIGNED_WRITE_CMD as a caller signs it (the client does not check the signature).
    static func write(_ value: [UInt8], handle: UInt16 = 0x0013) -> ATTSignedWrite {
        ATTSignedWrite(handle: handle, value: value[...], authenticationSignature: ArraySlice(1...12))
    }

    private func harness() -> GATTHarness { .heartRate() }

    @Test func sendsTheCommandAndCompletesAtOnce() {
        let h = harness()
        let w = Self.write([0x01])
        let id = h.perform(.signedWrite(w))
        guard case .success(.done)? = h.result(id) else {
            Issue.record("signed write failed: \(String(describing: h.result(id)))")
            return
        }
        #expect(h.server.signedWrites == [w])
        #expect(h.server.received == [[0xD2, 0x13, 0x00, 0x01] + Array(1...12)])
        #expect(h.server.requests.isEmpty)
        #expect(h.session.nextDeadline == nil)
    }

    // Vol 3, Part G, §4.9.2: on a link already encrypted a Write Without Response *shall* be
    // used instead of a Signed Write Without Response; the notice is given once per link.
    @Test func goesAsWriteWithoutResponseOnAnEncryptedLinkWithOneNotice() {
        let h = harness()
        h.session.linkEncrypted = true
        let first = h.perform(.signedWrite(Self.write([0x01])))
        let second = h.perform(.signedWrite(Self.write([0x02])))
        guard case .success(.done)? = h.result(first), case .success(.done)? = h.result(second) else {
            Issue.record("\(String(describing: h.result(first))) \(String(describing: h.result(second)))")
            return
        }
        #expect(h.server.received == [[0x52, 0x13, 0x00, 0x01], [0x52, 0x13, 0x00, 0x02]], "Write Commands, no signature")
        #expect(h.server.signedWrites.isEmpty)
        let notices = h.warnings.filter { $0.contains("Write Without Response") && $0.contains("§4.9.2") }
        #expect(notices.count == 1, "\(h.warnings)")
    }

    // Opcode, handle and signature leave ATT_MTU − 15 octets for the value (Part F, §3.4.5.4).
    @Test func aValueLongerThanTheMTUAllowsIsRefused() {
        let h = harness()
        #expect(h.error(h.perform(.signedWrite(Self.write([UInt8](repeating: 0, count: 9))))) != nil)
        #expect(h.server.received.isEmpty)
        let fits = h.perform(.signedWrite(Self.write([UInt8](repeating: 0, count: 8))))
        #expect(h.error(fits) == nil)
        #expect(h.server.signedWrites.count == 1)
    }

    @Test func aSignatureOfTheWrongSizeIsRefused() {
        let h = harness()
        let bad = ATTSignedWrite(handle: 0x0013, value: [1], authenticationSignature: [1, 2, 3])
        guard case .invalidState? = h.error(h.perform(.signedWrite(bad))) else {
            Issue.record("expected invalidState")
            return
        }
        #expect(h.server.received.isEmpty)
    }

    // The host learns of encryption from Encryption Change (Vol 4, Part E, §7.7.8) on the
    // link's connection handle, through ACL and L2CAP as on the air.
    @Test func encryptionChangeOnTheLinkSendsSignedWritesUnsigned() throws {
        let world = HostGATTWorld()
        let sensor = world.addPeer(1, GATTFixtures.heartRateServer())
        var plan = LinkPlan()
        plan.discover = false
        let link = world.connect(sensor, plan: plan)
        #expect(world.host.state(of: link) == .ready)
        let before = world.perform(.signedWrite(Self.write([0x01])), on: link)
        #expect(HostGATTIntegrationTests.succeeded(world.fake.result(before)))
        #expect(sensor.server.signedWrites.count == 1)

        let handle = try #require(sensor.handle)
        world.fake.emit(.encryptionChangeV1(EncryptionChangeV1Event(connectionHandle: handle, encryptionEnabled: .on)))
        world.settle()
        let after = world.perform(.signedWrite(Self.write([0x02])), on: link)
        #expect(HostGATTIntegrationTests.succeeded(world.fake.result(after)))
        #expect(sensor.server.signedWrites.count == 1, "the second went unsigned")
        #expect(sensor.server.received.last == [0x52, 0x13, 0x00, 0x02])

        // Encryption switched off again (a failed or paused encryption, Encryption_Enabled 0).
        world.fake.emit(.encryptionChangeV1(EncryptionChangeV1Event(connectionHandle: handle, encryptionEnabled: .off)))
        world.settle()
        #expect(HostGATTIntegrationTests.succeeded(world.fake.result(world.perform(.signedWrite(Self.write([0x03])), on: link))))
        #expect(sensor.server.signedWrites.count == 2)
    }
}
