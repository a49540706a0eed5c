import Testing
import Wire
@testable import HostCore

@Suite struct GATTSubscriptionTests {
    /// Linked and discovered, events cleared.
    private func discovered() -> GATTHarness {
        let h = GATTHarness(server: GATTFixtures.heartRateServer())
        h.linkUp()
        _ = h.perform(.discoverAll)
        h.clearEvents()
        return h
    }

    private func lastWrite(_ h: GATTHarness) -> (handle: UInt16, value: [UInt8])? {
        h.server.writes.last
    }

    // Core Spec v5.4 Vol 3, Part G, §4.10.1 / §4.11.1 and §3.3.3.3: the CCCD takes 0x0001 for
    // notifications, 0x0002 for indications, 0x0000 for off (little-endian).
    @Test(arguments: [
        (UInt16(0x000E), SubscriptionMode.notify, UInt16(0x000F), [UInt8(0x01), 0x00]),
        (0x000E, .indicate, 0x000F, [0x02, 0x00]),
        (0x000E, .off, 0x000F, [0x00, 0x00]),
        (0x000E, .automatic, 0x000F, [0x01, 0x00]),
        // Service Changed only indicates: automatic picks indications.
        (0x0008, .automatic, 0x0009, [0x02, 0x00]),
        // Battery Level notifies and reads: notifications.
        (0x0016, .automatic, 0x0017, [0x01, 0x00]),
    ])
    func aFirstSubscriptionWritesTheCCCD(valueHandle: UInt16, mode: SubscriptionMode, cccd: UInt16, value: [UInt8]) {
        let h = discovered()
        let id = h.perform(.subscribe(valueHandle: valueHandle, mode: mode))
        guard case .success(.done)? = h.result(id) else {
            Issue.record("failed: \(String(describing: h.result(id)))")
            return
        }
        #expect(lastWrite(h)?.handle == cccd)
        #expect(lastWrite(h)?.value == value)
        #expect(h.server.requests.last == .writeRequest)
    }

    @Test func characteristicWithoutCCCDIsNotFound() {
        let h = discovered()
        let before = h.server.requests.count
        let id = h.perform(.subscribe(valueHandle: 0x0011, mode: .notify))
        guard case let .notFound(text)? = h.error(id) else {
            Issue.record("expected notFound, got \(String(describing: h.result(id)))")
            return
        }
        #expect(text.contains("2A38"))
        #expect(h.server.requests.count == before)
    }

    @Test func unknownValueHandleIsNotFound() {
        let h = discovered()
        guard case .notFound? = h.error(h.perform(.subscribe(valueHandle: 0x0040, mode: .notify))) else {
            Issue.record("expected notFound")
            return
        }
    }

    @Test func withoutADatabaseSubscribeIsNotFound() {
        let h = GATTHarness(server: GATTFixtures.heartRateServer())
        h.linkUp()
        guard case .notFound? = h.error(h.perform(.subscribe(valueHandle: 0x000E, mode: .notify))) else {
            Issue.record("expected notFound")
            return
        }
        #expect(h.server.requests.isEmpty)
    }

    @Test func cccdWriteErrorFails() {
        let h = discovered()
        h.server.handleErrors[0x000F] = .cccdImproperlyConfigured
        let id = h.perform(.subscribe(valueHandle: 0x000E, mode: .notify))
        #expect(h.error(id)?.attErrorCode == .cccdImproperlyConfigured)
    }

    @Test func subscribedNotificationsFlowWithTheirHandles() {
        let h = discovered()
        _ = h.perform(.subscribe(valueHandle: 0x000E, mode: .notify))
        _ = h.perform(.subscribe(valueHandle: 0x0016, mode: .notify))
        for bpm: UInt8 in 60..<70 { h.server.notify(handle: 0x000E, value: [0x00, bpm]) }
        h.server.notify(handle: 0x0016, value: [86])
        h.pump()
        #expect(h.notifications.count == 11)
        #expect(h.notifications.filter { $0.0 == 0x000E }.map { $0.1[1] } == Array(60..<70))
        #expect(h.notifications.last.map { $0.0 } == 0x0016)
        #expect(h.notifications.last.map { $0.1 } == [86])
    }

    // BlueZ's habit (src/shared/gatt-client.c, register/unregister notify): registrations are
    // counted per value handle; the CCCD is written for the first and back to 0 after the last.
    @Test func registrationsAreCountedAndTheLastOneWritesTheCCCDBackToZero() {
        let h = discovered()
        func cccdWrites() -> [[UInt8]] { h.server.writes.filter { $0.handle == 0x000F }.map(\.value) }
        #expect(h.result(h.perform(.subscribe(valueHandle: 0x000E, mode: .notify))).map { if case .success = $0 { true } else { false } } == true)
        _ = h.perform(.subscribe(valueHandle: 0x000E, mode: .notify))
        #expect(cccdWrites() == [[0x01, 0x00]])
        #expect(h.session.registrationCount(0x000E) == 2)
        let first = h.perform(.unsubscribe(valueHandle: 0x000E))
        guard case .success(.done)? = h.result(first) else {
            Issue.record("first unsubscribe: \(String(describing: h.result(first)))")
            return
        }
        // Another registration still listens: the CCCD stays on.
        #expect(cccdWrites() == [[0x01, 0x00]])
        _ = h.perform(.unsubscribe(valueHandle: 0x000E))
        #expect(cccdWrites() == [[0x01, 0x00], [0x00, 0x00]])
        #expect(h.session.registrationCount(0x000E) == 0)
        // Nothing left to take back.
        guard case .invalidState? = h.error(h.perform(.unsubscribe(valueHandle: 0x000E))) else {
            Issue.record("expected invalidState for an unsubscribe without a registration")
            return
        }
        #expect(cccdWrites().count == 2)
    }

    @Test func aFailedSubscriptionHoldsNoRegistration() {
        let h = discovered()
        h.server.handleErrors[0x000F] = .cccdImproperlyConfigured
        _ = h.perform(.subscribe(valueHandle: 0x000E, mode: .notify))
        #expect(h.session.registrationCount(0x000E) == 0)
        h.server.handleErrors[0x000F] = nil
        _ = h.perform(.subscribe(valueHandle: 0x000E, mode: .notify))
        // Written again: the failed one did not count.
        #expect(h.server.writes.filter { $0.handle == 0x000F }.count == 1)
        #expect(h.session.registrationCount(0x000E) == 1)
    }

    @Test func thePlansSubscriptionIsARegistrationTheApplicationCannotTakeAway() {
        let plan = GATTHarness.plan(discover: true, subscriptions: [Subscription(characteristic: .heartRateMeasurement)])
        let h = GATTHarness(server: GATTFixtures.heartRateServer(), plan: plan)
        h.linkUp()
        #expect(h.session.registrationCount(0x000E) == 1)
        _ = h.perform(.subscribe(valueHandle: 0x000E, mode: .notify))
        _ = h.perform(.unsubscribe(valueHandle: 0x000E))
        // The plan's registration remains: no write of 0.
        #expect(h.server.writes.filter { $0.handle == 0x000F }.map(\.value) == [[0x01, 0x00]])
    }

    // Vol 3, Part F, §3.3.2: one request at a time; commands need no response and may go at
    // any time (BlueZ's att.c sends them from their own queue while a request waits).
    @Test func aWriteCommandGoesOutWhileARequestIsPending() {
        let h = discovered()
        let read = h.perform(.read(handle: 0x0011), pumping: false)
        let command = h.perform(.writeWithoutResponse(handle: 0x0011, value: [0x02]), pumping: false)
        // The read's request went first and is still unanswered; the command reached the server.
        #expect(h.server.requests.last == .readRequest)
        #expect(h.server.received.suffix(2).map(\.first) == [0x0A, 0x52])
        #expect(h.server.commands.last?.handle == 0x0011)
        #expect(h.result(read) == nil)
        guard case .success(.done)? = h.result(command) else {
            Issue.record("the command did not complete at once: \(String(describing: h.result(command)))")
            return
        }
        h.pump()
        #expect(h.value(read) != nil)
    }
}
