import Testing
import Dissector
import Wire

/// Keys zeroed for `--trace` and `--capture-redact`, everything else kept.
@Suite struct KeyRedactionTests {
    static let key: UInt128 = 0x0011_2233_4455_6677_8899_aabb_ccdd_eeff

    @Test func leEnableEncryptionKeepsHandleEDIVAndRandLosesTheKey() throws {
        let command = LEEnableEncryption(connectionHandle: 0x0040, randomNumber: 0x1122_3344_5566_7788,
                                         encryptedDiversifier: 0xBEEF, longTermKey: Self.key)
        let packet = command.packet
        let shown = try #require(KeyRedaction.redacted(packet))
        #expect(shown.type == .command)
        #expect(shown.bytes.count == packet.bytes.count)
        let decoded = try HCICommandPacket(shown).decode(LEEnableEncryption.self)
        #expect(decoded.connectionHandle == 0x0040 && decoded.randomNumber == 0x1122_3344_5566_7788
                && decoded.encryptedDiversifier == 0xBEEF)
        #expect(decoded.longTermKey == 0)
    }

    @Test func resolvingListLosesBothIRKs() throws {
        let peer = DeviceAddress(BDAddress(string: "C1:A2:A3:A4:A5:A6")!, type: .randomDevice)
        let packet = LEAddDeviceToResolvingList(peerIdentity: peer, peerIRK: Self.key, localIRK: ~Self.key).packet
        let decoded = try HCICommandPacket(try #require(KeyRedaction.redacted(packet))).decode(LEAddDeviceToResolvingList.self)
        #expect(decoded.peerIdentity == peer)
        #expect(decoded.peerIRK == 0 && decoded.localIRK == 0)
    }

    @Test("SMP Encryption Information, Identity Information and Signing Information lose their key; other SMP PDUs pass", arguments: [
        (SMPPDU.encryptionInformation(longTermKey: key), true),
        (SMPPDU.identityInformation(identityResolvingKey: key), true),
        (SMPPDU.signingInformation(signatureKey: key), true),
        (SMPPDU.pairingRandom(randomValue: key), false),
        (SMPPDU.centralIdentification(ediv: 1, rand: 2), false),
    ])
    func smpKeys(_ pdu: SMPPDU, _ secret: Bool) throws {
        let payload = pdu.encoded
        let frame = [UInt8(payload.count), 0, 0x06, 0x00] + payload
        let acl = ACLPacket(handle: 0x0040, packetBoundary: .firstFlushable, data: frame[...]).hciPacket
        let shown = KeyRedaction.redacted(acl)
        #expect((shown != nil) == secret)
        guard let shown else { return }
        let data = Array(shown.bytes.dropFirst(8))
        #expect(data.first == payload.first, "the code stays")
        #expect(data.dropFirst().allSatisfy { $0 == 0 })
    }

    @Test func otherPacketsAreUntouched() {
        #expect(KeyRedaction.redacted(LESetScanEnable(scanEnable: true, filterDuplicates: false).packet) == nil)
        let att = ACLPacket(handle: 1, packetBoundary: .firstFlushable, data: [21, 0, 0x04, 0x00] + [UInt8](repeating: 0x1B, count: 21))
        #expect(KeyRedaction.redacted(att.hciPacket) == nil)
    }
}
