import Testing
import Wire
@testable import HostCore

/// Reliable Writes (Core Spec v5.4 Vol 3, Part G, §4.9.5) against `FakeATTServer`'s
/// heart-rate database: 0x0003 Device Name, 0x0013 Heart Rate Control Point.
@Suite struct GATTReliableWriteTests {
    /// One value of a reliable write.
    private func W(_ handle: UInt16, _ value: [UInt8]) -> (handle: UInt16, value: [UInt8]) { (handle, value) }

    private func harness(_ configure: (FakeATTServer) -> Void = { _ in }) -> GATTHarness { .heartRate(configure) }

    /// (handle, offset, part length) of each Prepare Write Request the server received.
    private func prepares(_ h: GATTHarness) -> [[Int]] {
        h.server.received.compactMap { bytes in
            if case let .prepareWriteRequest(p)? = try? ATTPDU.decode(bytes) {
                return [Int(p.handle), Int(p.valueOffset), p.partAttributeValue.count]
            }
            return nil
        }
    }

    private func lastExecuteFlags(_ h: GATTHarness) -> ATTExecuteWriteFlags? {
        for bytes in h.server.received.reversed() {
            if case let .executeWriteRequest(flags)? = try? ATTPDU.decode(bytes) { return flags }
        }
        return nil
    }

    // Two characteristics, one of them longer than a part: every part queued, then one
    // Execute Write writes both.
    @Test func writesSeveralCharacteristicsTogether() {
        let name = (0..<30).map { UInt8(0x40 + $0) }
        let h = harness()
        let id = h.perform(.reliableWrite([W(0x0013, [0x01]), W(0x0003, name)]))
        guard case .success(.done)? = h.result(id) else {
            Issue.record("reliable write failed: \(String(describing: h.result(id)))")
            return
        }
        #expect(prepares(h) == [[0x13, 0, 1], [0x03, 0, 18], [0x03, 18, 12]])
        #expect(h.server.requests.last == .executeWriteRequest)
        #expect(lastExecuteFlags(h) == .immediatelyWriteAllPendingPreparedValues)
        #expect(h.server.value(at: 0x0013) == [0x01])
        #expect(h.server.value(at: 0x0003) == name)
    }

    // An empty value is one empty part.
    @Test func anEmptyValueIsOneEmptyPart() {
        let h = harness()
        let id = h.perform(.reliableWrite([W(0x0003, []), W(0x0013, [0x02])]))
        guard case .success(.done)? = h.result(id) else {
            Issue.record("reliable write failed: \(String(describing: h.result(id)))")
            return
        }
        #expect(prepares(h) == [[0x03, 0, 0], [0x13, 0, 1]])
        #expect(h.server.writes.map(\.handle).sorted() == [0x0003, 0x0013])
    }

    // §4.9.5: an echo that differs from its request cancels the whole queue (Execute Write,
    // flags 0x00); nothing is written.
    @Test func aWrongEchoCancelsEverything() throws {
        let before = (h3: GATTFixtures.heartRateServer().value(at: 0x0003), h13: GATTFixtures.heartRateServer().value(at: 0x0013))
        var prepared = 0
        let h = harness { server in
            server.override = { pdu in
                guard case let .prepareWriteRequest(p) = pdu else { return nil }
                prepared += 1
                // The second part comes back with its last byte changed.
                var echo = Array(p.partAttributeValue)
                if prepared == 2, !echo.isEmpty { echo[echo.count - 1] ^= 0x01 }
                return ATTPDU.prepareWriteResponse(ATTPrepareWrite(handle: p.handle, valueOffset: p.valueOffset,
                                                                   partAttributeValue: echo[...])).encoded
            }
        }
        let id = h.perform(.reliableWrite([W(0x0013, [0x01]), W(0x0003, [1, 2, 3]), W(0x0003, [4])]))
        guard case let .protocolViolation(text)? = h.error(id) else {
            Issue.record("expected a protocol violation, got \(String(describing: h.result(id)))")
            return
        }
        #expect(text.contains("does not echo"))
        #expect(h.server.requests == [.prepareWriteRequest, .prepareWriteRequest, .executeWriteRequest])
        #expect(lastExecuteFlags(h) == .cancelAllPreparedWrites)
        #expect(h.server.value(at: 0x0003) == before.h3)
        #expect(h.server.value(at: 0x0013) == before.h13)
    }

    // A part the server refuses cancels what was queued before it and fails with its code.
    @Test func aRefusedPartCancelsWhatWasQueued() {
        let h = harness { $0.handleErrors[0x0003] = .insufficientAuthorization }
        let id = h.perform(.reliableWrite([W(0x0013, [0x01]), W(0x0003, [1, 2, 3])]))
        #expect(h.error(id) == .att(error: ATTErrorCode.insufficientAuthorization.rawValue,
                                    request: ATTOpcode.prepareWriteRequest.rawValue, handle: 0x0003))
        #expect(h.server.requests == [.prepareWriteRequest, .prepareWriteRequest, .executeWriteRequest])
        #expect(lastExecuteFlags(h) == .cancelAllPreparedWrites)
        #expect(h.server.value(at: 0x0013) == [0x00])
    }

    // The server may refuse the Execute Write itself (e.g. Invalid Attribute Value Length).
    @Test func aRefusedExecuteFailsWithItsCode() {
        let h = harness { $0.opcodeErrors[ATTOpcode.executeWriteRequest.rawValue] = .invalidAttributeValueLength }
        let id = h.perform(.reliableWrite([W(0x0013, [0x01]), W(0x0003, [1])]))
        #expect(h.error(id)?.attErrorCode == .invalidAttributeValueLength)
        #expect(h.error(id)?.attRequestOpcode == .executeWriteRequest)
    }

    @Test func nothingToWriteIsRefusedBeforeSending() {
        let h = harness()
        let id = h.perform(.reliableWrite([]))
        guard case .invalidState? = h.error(id) else {
            Issue.record("expected invalidState, got \(String(describing: h.result(id)))")
            return
        }
        #expect(h.server.requests.isEmpty)
    }

    // The larger the ATT_MTU, the larger the parts (ATT_MTU − 5 octets each).
    @Test func partsFollowTheMTU() {
        let value = [UInt8](repeating: 0xAB, count: 300)
        let h = harness { $0.serverRxMTU = 247 }
        _ = h.perform(.exchangeMTU(247))
        let id = h.perform(.reliableWrite([W(0x0003, value)]))
        guard case .success(.done)? = h.result(id) else {
            Issue.record("reliable write failed: \(String(describing: h.result(id)))")
            return
        }
        #expect(prepares(h) == [[0x03, 0, 242], [0x03, 242, 58]])
        #expect(h.server.value(at: 0x0003) == value)
    }
}
