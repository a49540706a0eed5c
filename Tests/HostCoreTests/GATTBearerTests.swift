import Testing
import Wire
@testable import HostCore

@Suite struct GATTBearerTests {
    private func harness(_ configure: (FakeATTServer) -> Void = { _ in }) -> GATTHarness { .heartRate(configure) }

    // Core Spec v5.4 Vol 3, Part F, §3.3.3: a request unanswered for 30 s times out; the
    // bearer is closed and takes no further request.
    @Test func transactionTimeoutClosesTheBearer() {
        let h = harness { $0.stall = true }
        let start = h.now
        let pending = h.perform(.read(handle: 0x0003))
        let queued = h.perform(.write(handle: 0x0013, value: [1]))
        #expect(h.session.nextDeadline == start + HostDuration.seconds(30))
        #expect(h.server.requests == [.readRequest])

        h.advance(by: HostDuration.seconds(30) - 1)
        #expect(h.result(pending) == nil)
        #expect(h.session.isBearerOpen)

        h.advance(by: 1)
        #expect(h.error(pending) == .attTimeout(request: ATTOpcode.readRequest.rawValue))
        #expect(h.error(queued) == .attTimeout(request: ATTOpcode.readRequest.rawValue))
        #expect(h.warnings.contains { $0.contains("Read Request") && $0.contains("30 s") })
        #expect(h.sessionFailures == [.attTimeout(request: 0x0A)])
        #expect(h.session.failure == .attTimeout(request: 0x0A))
        #expect(!h.session.isBearerOpen)
        #expect(h.session.nextDeadline == nil)

        // Later operations fail at once, and nothing more goes to the peer.
        let later = h.perform(.read(handle: 0x0005))
        #expect(h.error(later) == .attTimeout(request: 0x0A))
        #expect(h.server.requests == [.readRequest])
        #expect(h.completions(pending) == 1)

        // A late answer is dropped with a warning, never matched to anything.
        let warningsBefore = h.warnings.count
        h.receive(ATTPDU.readResponse(value: [1, 2][...]).encoded)
        #expect(h.warnings.count == warningsBefore + 1)
        #expect(h.completions(pending) == 1)
        // Notifications still arrive; an indication cannot be confirmed any more.
        h.receive([0x1B, 0x0E, 0x00, 0x01])
        #expect(h.notifications.count == 1)
        h.receive([0x1D, 0x08, 0x00, 0x01, 0x00, 0xFF, 0xFF])
        #expect(h.server.confirmations == 0)
        #expect(h.indications.isEmpty)
    }

    @Test func timeoutDuringThePlanStopsIt() {
        let server = GATTFixtures.heartRateServer()
        server.stall = true
        let h = GATTHarness(server: server, plan: GATTHarness.plan(mtu: 247, discover: true))
        h.linkUp()
        #expect(h.linkStates == [.mtu])
        h.advance(by: HostDuration.seconds(31))
        #expect(h.session.failure == .attTimeout(request: ATTOpcode.exchangeMTURequest.rawValue))
        #expect(h.linkStates == [.mtu])
        #expect(h.server.requests == [.exchangeMTURequest])
    }

    // The deadline follows the request in flight, not the operation: each new request of a
    // procedure restarts the 30 s.
    @Test func deadlineFollowsEachRequest() {
        let h = harness()
        h.server.stall = true
        _ = h.perform(.read(handle: 0x0003))
        let first = h.session.nextDeadline
        h.advance(by: HostDuration.seconds(10))
        h.server.stall = false
        h.server.injectResponse(ATTPDU.readResponse(value: [1][...]).encoded)
        h.pump()
        #expect(h.session.nextDeadline == nil)
        h.server.stall = true
        _ = h.perform(.read(handle: 0x0005))
        #expect(h.session.nextDeadline == first.map { $0 + HostDuration.seconds(10) })
    }

    // A response with no request pending, or of the wrong kind, is reported and dropped; the
    // request in flight still completes with its own response.
    @Test func unexpectedResponsesAreWarnedAndDropped() {
        let h = harness()
        h.receive([0x0B, 0x01, 0x02])
        #expect(h.warnings.count == 1)
        #expect(h.warnings[0].contains("no request pending"))
        #expect(h.warnings[0].contains("0b 01 02"))

        h.server.stall = true
        let id = h.perform(.read(handle: 0x0003))
        h.receive(ATTPDU.writeResponse.encoded)
        h.receive(ATTPDU.errorResponse(ATTErrorResponse(requestOpcodeInError: .writeRequest, attributeHandleInError: 3,
                                                        errorCode: .invalidHandle)).encoded)
        #expect(h.warnings.count == 3)
        #expect(h.result(id) == nil)
        h.server.injectResponse(ATTPDU.readResponse(value: [9][...]).encoded)
        h.pump()
        #expect(h.value(id) == [9])
    }

    // A response that does not decode still ends the transaction: the operation fails with a
    // protocol violation naming the PDU, and the bytes are reported.
    @Test func malformedResponseFailsTheOperation() {
        let h = harness()
        h.server.stall = true
        let id = h.perform(.readByType(BluetoothUUID(0x2A38), range: 0x0001...0xFFFF))
        // Length 7, but 4 bytes of data: the list does not tile (Vol 3, Part F, §3.4.4.2).
        h.server.injectResponse([0x09, 0x07, 0x11, 0x00, 0x01, 0x02])
        h.pump()
        guard case let .protocolViolation(text)? = h.error(id) else {
            Issue.record("expected protocolViolation, got \(String(describing: h.result(id)))")
            return
        }
        #expect(text.contains("Read By Type Response"))
        #expect(h.warnings.contains { $0.contains("09 07 11 00 01 02") })
        #expect(h.session.nextDeadline == nil)
        // The bearer is free again.
        h.server.stall = false
        #expect(h.value(h.perform(.read(handle: 0x0011))) == [1])
    }

    // §3.4.1.1: a client-only host answers the peer's requests with Request Not Supported,
    // handle 0x0000; commands are ignored; Exchange MTU is answered (§3.4.2.2).
    @Test func peerRequestsAreAnswered() {
        let h = harness()
        h.receive(ATTPDU.readRequest(handle: 0x0003).encoded)
        h.receive(ATTPDU.readByGroupTypeRequest(ATTAttributeTypeQuery(range: .all, attributeType: .primaryService)).encoded)
        h.receive(ATTPDU.writeCommand(ATTHandleValue(handle: 3, value: [1])).encoded)
        h.receive([0x3F, 0x01])
        #expect(h.server.errorResponsesReceived == [
            ATTErrorResponse(requestOpcodeInError: .readRequest, attributeHandleInError: 0, errorCode: .requestNotSupported),
            ATTErrorResponse(requestOpcodeInError: .readByGroupTypeRequest, attributeHandleInError: 0, errorCode: .requestNotSupported),
            ATTErrorResponse(requestOpcodeInError: ATTOpcode(0x3F), attributeHandleInError: 0, errorCode: .requestNotSupported),
        ])
        #expect(h.warnings.isEmpty)
    }

    @Test func peerExchangeMTUIsAnswered() {
        let server = GATTFixtures.heartRateServer()
        let h = GATTHarness(server: server, plan: GATTHarness.plan(mtu: 185))
        h.receive(ATTPDU.exchangeMTURequest(clientRxMTU: 100).encoded)
        #expect(h.server.mtuResponsesReceived == [185])
        #expect(h.session.mtu == 100)
        #expect(h.mtuChanges == [100])
    }

    // §3.4.7.1: notifications arrive at any time, as slices of the received bytes.
    @Test func notificationIsASliceOfTheInput() {
        let h = harness()
        let bytes: [UInt8] = [0x1B, 0x0E, 0x00, 0x06, 0x48, 0x00]
        h.session.receive(bytes[...], at: h.now)
        guard case let .notification(link, handle, value)? = h.events.last else {
            Issue.record("no notification")
            return
        }
        #expect(link == h.link)
        #expect(handle == 0x000E)
        #expect(Array(value) == [0x06, 0x48, 0x00])
        // Same storage: the slice starts 3 bytes into the input buffer.
        let inputBase = bytes.withUnsafeBufferPointer { $0.baseAddress }
        let valueBase = value.withUnsafeBufferPointer { $0.baseAddress }
        #expect(valueBase == inputBase.map { $0 + 3 })
        #expect(value.startIndex == 3)
    }

    @Test func notificationDuringAProcedureDoesNotDisturbIt() {
        let h = harness()
        h.server.stall = true
        let id = h.perform(.read(handle: 0x0003))
        h.server.notify(handle: 0x000E, value: [0x00, 0x50])
        h.server.injectResponse(ATTPDU.readResponse(value: [7][...]).encoded)
        h.pump()
        #expect(h.notifications.map(\.0) == [0x000E])
        #expect(h.value(id) == [7])
    }

    @Test func shortNotificationIsWarned() {
        let h = harness()
        h.receive([0x1B, 0x0E])
        #expect(h.notifications.isEmpty)
        #expect(h.warnings.count == 1)
    }

    // §3.4.7.2: an indication is confirmed, then delivered.
    @Test func indicationIsConfirmed() {
        let h = harness()
        h.server.indicate(handle: 0x0016, value: [42])
        h.pump()
        #expect(h.server.confirmations == 1)
        #expect(h.indications.map(\.0) == [0x0016])
        #expect(h.indications.map(\.1) == [[42]])
        #expect(h.server.received.last == [0x1E])
    }

    // §3.4.7.4 Multiple Handle Value Notification: each value delivered on its own.
    @Test func multipleHandleValueNotification() {
        let h = harness()
        h.receive([0x23, 0x0E, 0x00, 0x02, 0x00, 0x06, 0x48, 0x16, 0x00, 0x01, 0x00, 0x57])
        #expect(h.notifications.map(\.0) == [0x000E, 0x0016])
        #expect(h.notifications.map(\.1) == [[0x06, 0x48], [0x57]])
        // A length running past the end delivers nothing.
        h.receive([0x23, 0x0E, 0x00, 0x05, 0x00, 0x06])
        #expect(h.notifications.count == 2)
        #expect(h.warnings.count == 1)
    }

    @Test func linkDownFailsEverything() {
        let h = harness { $0.stall = true }
        let a = h.perform(.read(handle: 0x0003))
        let b = h.perform(.read(handle: 0x0005))
        h.linkDown(HCIStatus(rawValue: 0x08))
        #expect(h.error(a) == .disconnected(HCIStatus(rawValue: 0x08)))
        #expect(h.error(b) == .disconnected(HCIStatus(rawValue: 0x08)))
        #expect(h.session.state == .disconnected)
        #expect(h.session.nextDeadline == nil)
        let c = h.perform(.read(handle: 0x0003))
        #expect(h.error(c) == .disconnected(HCIStatus(rawValue: 0x08)))
        #expect(h.server.requests.count == 1)
    }

    @Test func emptyAndUnknownPDUsNeverCrash() {
        let h = harness()
        h.receive([])
        h.receive([0x1E])
        h.receive([0x7F])
        h.receive([0x05])
        #expect(h.warnings.count == 3)
    }
}
