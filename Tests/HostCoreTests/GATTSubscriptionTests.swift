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
    func setNotificationsWritesTheCCCD(valueHandle: UInt16, mode: SubscriptionMode, cccd: UInt16, value: [UInt8]) {
        let h = discovered()
        let id = h.perform(.setNotifications(valueHandle: valueHandle, mode: mode))
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
        let id = h.perform(.setNotifications(valueHandle: 0x0011, mode: .notify))
        guard case let .notFound(text)? = h.error(id) else {
            Issue.record("expected notFound, got \(String(describing: h.result(id)))")
            return
        }
        #expect(text.contains("2A38"))
        #expect(h.server.requests.count == before)
    }

    @Test func unknownValueHandleIsNotFound() {
        let h = discovered()
        guard case .notFound? = h.error(h.perform(.setNotifications(valueHandle: 0x0040, mode: .notify))) else {
            Issue.record("expected notFound")
            return
        }
    }

    @Test func withoutADatabaseSetNotificationsIsNotFound() {
        let h = GATTHarness(server: GATTFixtures.heartRateServer())
        h.linkUp()
        guard case .notFound? = h.error(h.perform(.setNotifications(valueHandle: 0x000E, mode: .notify))) else {
            Issue.record("expected notFound")
            return
        }
        #expect(h.server.requests.isEmpty)
    }

    @Test func cccdWriteErrorFails() {
        let h = discovered()
        h.server.handleErrors[0x000F] = .cccdImproperlyConfigured
        let id = h.perform(.setNotifications(valueHandle: 0x000E, mode: .notify))
        #expect(h.error(id)?.attErrorCode == .cccdImproperlyConfigured)
    }

    @Test func subscribedNotificationsFlowWithTheirHandles() {
        let h = discovered()
        _ = h.perform(.setNotifications(valueHandle: 0x000E, mode: .notify))
        _ = h.perform(.setNotifications(valueHandle: 0x0016, mode: .notify))
        for bpm: UInt8 in 60..<70 { h.server.notify(handle: 0x000E, value: [0x00, bpm]) }
        h.server.notify(handle: 0x0016, value: [86])
        h.pump()
        #expect(h.notifications.count == 11)
        #expect(h.notifications.filter { $0.0 == 0x000E }.map { $0.1[1] } == Array(60..<70))
        #expect(h.notifications.last.map { $0.0 } == 0x0016)
        #expect(h.notifications.last.map { $0.1 } == [86])
    }
}
