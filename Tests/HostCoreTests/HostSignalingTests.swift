import Testing
@testable import HostCore
import Wire

/// The central's answers on the LE signaling channel (Core Spec v5.4 Vol 3, Part A, §4).
@Suite struct HostSignalingTests {
    /// Connection Parameter Update Request (§4.20): code 0x12, identifier, length 8, then
    /// Interval Min, Interval Max, Peripheral Latency, Timeout Multiplier.
    static func parameterUpdateRequest(id: UInt8, min: UInt16, max: UInt16, latency: UInt16, timeout: UInt16) -> [UInt8] {
        [0x12, id, 0x08, 0x00,
         UInt8(min & 0xFF), UInt8(min >> 8), UInt8(max & 0xFF), UInt8(max >> 8),
         UInt8(latency & 0xFF), UInt8(latency >> 8), UInt8(timeout & 0xFF), UInt8(timeout >> 8)]
    }

    func connected() -> (HCIHost, FakeController) {
        let (host, fake) = readyHost()
        connectLink(host, fake, peer(1), handle: 0x0040)
        fake.clearRecord()
        return (host, fake)
    }

    @Test func acceptedParameterUpdateIsApplied() throws {
        let (_, fake) = connected()
        // 30–50 ms, latency 4, 6 s.
        fake.l2cap(handle: 0x0040, channel: 5, Self.parameterUpdateRequest(id: 7, min: 24, max: 40, latency: 4, timeout: 600))
        // Connection Parameter Update Response (§4.21): 0x13, same identifier, length 2, result 0.
        #expect(fake.l2capSent.map(\.channel) == [0x0005])
        #expect(fake.l2capSent.first?.payload == [0x13, 7, 0x02, 0x00, 0x00, 0x00])
        fake.run()
        let update = try #require(fake.commands(LEConnectionUpdate.self).first)
        #expect(update == LEConnectionUpdate(connectionHandle: 0x0040, connectionIntervalMin: 24,
                                             connectionIntervalMax: 40, maxLatency: 4, supervisionTimeout: 600))
        #expect(fake.warnings.isEmpty)
        // The response went out before the command.
        #expect(fake.sent.first?.type == .acl)
    }

    @Test func connectionUpdateCompleteUpdatesTheLink() {
        let (_, fake) = connected()
        fake.emitLE(.connectionUpdateComplete(LEConnectionUpdateCompleteEvent(
            connectionHandle: 0x0040, connectionInterval: 40, peripheralLatency: 4, supervisionTimeout: 600)))
        let info = fake.pulledHost.links.first?.connection
        #expect(info?.interval == 40)
        #expect(info?.latency == 4)
        #expect(info?.supervisionTimeout == 600)
    }

    @Test func outOfRangeParametersAreRejected() {
        // Each with the words the warning must use to name what was wrong.
        let cases: [(UInt16, UInt16, UInt16, UInt16, String)] = [
            (5, 40, 0, 400, "interval min 5 is outside 6–3200"),
            (40, 24, 0, 400, "interval min 40 is above interval max 24"),
            (24, 3201, 0, 400, "interval max 3201 is outside 6–3200"),
            (24, 40, 500, 3200, "latency 500 is above 499"),
            (24, 40, 0, 9, "supervision timeout 9 is outside 10–3200"),
            (24, 40, 0, 3201, "supervision timeout 3201 is outside 10–3200"),
            // Timeout shorter than (1 + latency) × interval × 2; then exactly equal, which is not above.
            (800, 800, 4, 100, "supervision timeout 100 (×10 ms) is not above"),
            (12, 12, 4, 15, "supervision timeout 15 (×10 ms) is not above"),
        ]
        for (n, (min, max, latency, timeout, words)) in cases.enumerated() {
            let (_, fake) = connected()
            let id = UInt8(n + 1)
            fake.l2cap(handle: 0x0040, channel: 5,
                       Self.parameterUpdateRequest(id: id, min: min, max: max, latency: latency, timeout: timeout))
            fake.run()
            #expect(fake.l2capSent.first?.payload == [0x13, id, 0x02, 0x00, 0x01, 0x00], "case \(n)")
            #expect(fake.count(.leConnectionUpdate) == 0, "case \(n)")
            #expect(fake.hasWarning(containing: words), "case \(n): \(fake.warnings.map(\.message))")
        }
    }

    @Test func creditBasedConnectionRequestIsRefused() {
        let (_, fake) = connected()
        // LE Credit Based Connection Request (§4.22): SPSM 0x0080, Source CID 0x0040, MTU 512,
        // MPS 247, Initial Credits 10.
        fake.l2cap(handle: 0x0040, channel: 5,
                   [0x14, 0x03, 0x0A, 0x00, 0x80, 0x00, 0x40, 0x00, 0x00, 0x02, 0xF7, 0x00, 0x0A, 0x00])
        // Response (§4.23): Destination CID, MTU, MPS, Initial Credits all 0, Result 0x0002
        // (LE_PSM not supported).
        #expect(fake.l2capSent.first?.payload == [0x15, 0x03, 0x0A, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00])
    }

    @Test func enhancedCreditBasedConnectionRequestIsRefusedPerChannel() {
        let (_, fake) = connected()
        // Credit Based Connection Request (§4.25): SPSM 0x0027 (EATT), MTU 64, MPS 64,
        // 10 credits, Source CIDs 0x0040 and 0x0041.
        fake.l2cap(handle: 0x0040, channel: 5,
                   [0x17, 0x04, 0x0C, 0x00, 0x27, 0x00, 0x40, 0x00, 0x40, 0x00, 0x0A, 0x00, 0x40, 0x00, 0x41, 0x00])
        // Response (§4.26): MTU, MPS, credits 0, Result 0x0002 (SPSM not supported), one
        // Destination CID 0x0000 per Source CID asked for.
        #expect(fake.l2capSent.first?.payload
                == [0x18, 0x04, 0x0C, 0x00, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0, 0, 0, 0])
    }

    @Test func creditBasedReconfigureRequestNamesNoChannelOfOurs() {
        let (_, fake) = connected()
        // Reconfigure Request (§4.27): MTU 512, MPS 100, CID 0x0040.
        fake.l2cap(handle: 0x0040, channel: 5, [0x19, 0x05, 0x06, 0x00, 0x00, 0x02, 0x64, 0x00, 0x40, 0x00])
        // Response (§4.28): 0x0003, one or more Destination CIDs invalid.
        #expect(fake.l2capSent.first?.payload == [0x1A, 0x05, 0x02, 0x00, 0x03, 0x00])
    }

    @Test func unknownCodeGetsCommandReject() {
        let (_, fake) = connected()
        // Echo Request (0x08) is BR/EDR only: not understood on LE.
        fake.l2cap(handle: 0x0040, channel: 5, [0x08, 0x09, 0x02, 0x00, 0xAB, 0xCD])
        // Command Reject (§4.1): 0x01, same identifier, length 2, reason 0x0000.
        #expect(fake.l2capSent.first?.payload == [0x01, 0x09, 0x02, 0x00, 0x00, 0x00])
        #expect(fake.hasWarning(containing: "not understood"))
    }

    @Test func disconnectionRequestForAMissingChannelIsRejected() {
        let (_, fake) = connected()
        // Disconnection Request (§4.6): Destination CID 0x0041, Source CID 0x0050.
        fake.l2cap(handle: 0x0040, channel: 5, [0x06, 0x04, 0x04, 0x00, 0x41, 0x00, 0x50, 0x00])
        // Command Reject, Invalid CID in request (0x0002), local CID 0x0041, remote 0x0050.
        #expect(fake.l2capSent.first?.payload == [0x01, 0x04, 0x06, 0x00, 0x02, 0x00, 0x41, 0x00, 0x50, 0x00])
    }

    @Test func responsesAreIgnored() {
        let (_, fake) = connected()
        fake.l2cap(handle: 0x0040, channel: 5, [0x13, 0x01, 0x02, 0x00, 0x00, 0x00])
        fake.l2cap(handle: 0x0040, channel: 5, [0x01, 0x02, 0x02, 0x00, 0x00, 0x00])
        #expect(fake.sent.isEmpty)
        #expect(fake.warnings.isEmpty)
    }

    @Test func malformedRequestIsRejectedAsNotUnderstood() {
        let (_, fake) = connected()
        // A Connection Parameter Update Request with 6 data bytes instead of 8, its Length
        // saying 6: a sound header, parameters that do not decode.
        let bad: [UInt8] = [0x12, 0x01, 0x06, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00]
        fake.l2cap(handle: 0x0040, channel: 5, bad)
        // Command Reject (§4.1): same identifier, reason 0x0000 Command not understood.
        #expect(fake.l2capSent.map(\.payload) == [[0x01, 0x01, 0x02, 0x00, 0x00, 0x00]])
        #expect(fake.warnings.first?.bytes == bad)
        #expect(fake.hasWarning(containing: "rejected as not understood"))
        #expect(fake.count(.leConnectionUpdate) == 0)
    }

    @Test func commandWhoseLengthOverrunsIsDroppedWithItsBytes() {
        let (_, fake) = connected()
        // Length says 8, only 6 bytes follow: no sound header to answer.
        let bad: [UInt8] = [0x12, 0x01, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00]
        fake.l2cap(handle: 0x0040, channel: 5, bad)
        #expect(fake.sent.isEmpty)
        #expect(fake.warnings.first?.bytes == bad)
        #expect(fake.hasWarning(containing: "dropped"))
    }

    @Test func malformedResponseIsDroppedNotRejected() {
        let (_, fake) = connected()
        // A Connection Parameter Update Response with 1 data byte: never answered (§4.1).
        let bad: [UInt8] = [0x13, 0x01, 0x01, 0x00, 0x00]
        fake.l2cap(handle: 0x0040, channel: 5, bad)
        #expect(fake.sent.isEmpty)
        #expect(fake.warnings.first?.bytes == bad)
    }

    @Test func fragmentedRequestIsReassembledThenAnswered() {
        let (_, fake) = connected()
        let request = Self.parameterUpdateRequest(id: 2, min: 24, max: 40, latency: 0, timeout: 400)
        let frame: [UInt8] = [UInt8(request.count), 0, 0x05, 0x00] + request
        fake.acl(handle: 0x0040, boundary: .firstFlushable, Array(frame[0..<6]))
        #expect(fake.sent.isEmpty)
        fake.acl(handle: 0x0040, boundary: .continuing, Array(frame[6...]))
        #expect(fake.l2capSent.first?.payload == [0x13, 2, 0x02, 0x00, 0x00, 0x00])
    }
}
