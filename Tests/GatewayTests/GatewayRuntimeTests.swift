import HostCore
import MQTT
import Testing
import Wire
@testable import Gateway

/// The runtime over a controller with scripted hosts, as the driver uses it: adapters opened
/// and lost, reloads, the broker's events and the end.
@Suite struct GatewayRuntimeTests {
    static let s = HostDuration.seconds(1)
    let runtime: GatewayRuntime
    var controller: GatewayController { runtime.controller }
    let now: HostTime = 100 * Self.s

    init() {
        let options = GatewayController.Options(gatewayID: "gw", version: "0.1", wallClock: { 1_700_000_000 })
        runtime = GatewayRuntime(controller: GatewayController(configuration: GatewayConfiguration(), options: options),
                                 adapters: [(name: "hci0", backend: .userChannel), (name: "hci1", backend: .kernel)])
    }

    func open(_ index: Int, at t: HostTime) -> ScriptedHost {
        let h = ScriptedHost()
        runtime.adapterOpened(index, host: h, at: t)
        controller.hostEvent(.controllerReady(ControllerInfo()), adapter: index, at: t)
        return h
    }

    func adapterStatus(_ name: String) -> String? {
        controller.takeMessages().last { $0.topic == "rtstack/gw/adapter/\(name)" }?.text
    }

    @Test func anAdapterThatCouldNotBeOpenedIsTriedAgainAfterASecondAndReportedDown() {
        _ = open(0, at: now)
        runtime.adapterLost(1, reason: "could not be opened", at: now)
        #expect(adapterStatus("hci1")?.contains("\"state\":\"down\"") == true)
        #expect(runtime.roster.nextDeadline == now + Self.s)
        #expect(runtime.adaptersToOpen(at: now + Self.s - 1).isEmpty)
        #expect(runtime.adaptersToOpen(at: now + Self.s) == [1])
        runtime.reopenFailed(1, reason: "no such device", at: now + Self.s)
        #expect(controller.takeLog().contains { $0.1 == "hci1: still gone (no such device)" })
        #expect(runtime.adaptersToOpen(at: now + 3 * Self.s) == [1])
        _ = open(1, at: now + 3 * Self.s)
        #expect(controller.takeLog().contains { $0.1 == "hci1: back" })
        #expect(adapterStatus("hci1")?.contains("\"state\":\"up\"") == true)
    }

    @Test func aLostAdaptersDeviceIsPlacedOnTheOtherAdapter() {
        let h0 = open(0, at: now)
        let h1 = open(1, at: now)
        let heart = DeviceAddress(BDAddress(string: "C1:00:00:00:00:01")!, type: .randomDevice)
        let data = GatewayRig.advertisingData(.heartRate)
        controller.hostEvent(.advertisement(AdvertisementReport(address: heart, rssi: -40, connectable: true, scannable: true,
                                                                isScanResponse: false, data: data[...])), adapter: 0, at: now)
        controller.hostEvent(.advertisement(AdvertisementReport(address: heart, rssi: -70, connectable: true, scannable: true,
                                                                isScanResponse: false, data: data[...])), adapter: 1, at: now)
        #expect(h0.link(to: heart) != nil && h1.link(to: heart) == nil)
        runtime.adapterLost(0, reason: "end of stream", at: now + Self.s)
        #expect(h1.link(to: heart) != nil)
    }

    @Test func noAdapterIsOpenedAgainWhileTheGatewayStops() {
        _ = open(0, at: now)
        runtime.adapterLost(1, reason: "could not be opened", at: now)
        controller.advanceTime(to: now)   // the gateway status: the next is a minute away
        controller.beginShutdown(at: now)
        // The reopening's deadline is not the loop's while stopping (it would wake it at once
        // and again until the end).
        #expect(runtime.nextDeadline.map { $0 > now + Self.s } ?? true)
        #expect(runtime.adaptersToOpen(at: now + 10 * Self.s).isEmpty)
    }

    @Test func theBrokerIsStoppedOnlyOnceTheControllerHasShutDown() {
        _ = open(0, at: now)
        _ = open(1, at: now)
        controller.advanceTime(to: now)
        #expect(!runtime.shouldStopBroker(connected: true, queued: 0, at: now))
        #expect(!runtime.shouldEndLoop(brokerStopped: true, at: now))
        controller.beginShutdown(at: now)
        #expect(controller.isShutDown)
        #expect(!runtime.shouldStopBroker(connected: true, queued: 3, at: now))
        #expect(runtime.nextDeadline == now + BrokerStopSequence.drainLimit)
        #expect(runtime.shouldStopBroker(connected: true, queued: 0, at: now + Self.s))
        #expect(!runtime.shouldEndLoop(brokerStopped: false, at: now + Self.s))
        #expect(runtime.shouldEndLoop(brokerStopped: true, at: now + Self.s))
    }

    @Test func aReloadRetiresRemovedAdaptersAndAddsNewOnesToOpenAtOnce() {
        _ = open(0, at: now)
        _ = open(1, at: now)
        var new = GatewayConfiguration()
        new.adapters = ["hci1", "tcp:127.0.0.1:9000"]
        let outcome = runtime.reload(new, at: now)
        #expect(outcome.retired == [0] && outcome.added == ["tcp:127.0.0.1:9000"] && outcome.needsRestart.isEmpty)
        #expect(adapterStatus("hci0")?.contains("removed from the configuration") == true)
        #expect(runtime.roster.entries[0].state == .retired)
        let index = runtime.addAdapter(name: "tcp:127.0.0.1:9000", backend: .userChannel, at: now)
        #expect(index == 2)
        #expect(runtime.adaptersToOpen(at: now) == [2])
        runtime.adapterLost(0, reason: "end of stream", at: now)
        #expect(runtime.adaptersToOpen(at: .max).isEmpty)
    }

    @Test func theBrokerComingBackPublishesTheRetainedStateAgain() {
        _ = open(0, at: now)
        _ = controller.takeMessages()
        runtime.brokerEvent(.connectionLost(reason: "connection reset", retryAt: now + 2_500_000_000), broker: "mqtt://b", held: 3, limit: 10, at: now)
        #expect(controller.takeLog().contains {
            $0.1 == "MQTT: connection reset; next attempt in 3 s (3 message(s) held, at most 10)"
        })
        runtime.brokerEvent(.connected, broker: "mqtt://b", held: 0, limit: 10, at: now + Self.s)
        let topics = controller.takeMessages().map(\.topic)
        #expect(topics.contains("rtstack/gw/adapter/hci0") && topics.contains("rtstack/gw/gateway"))
    }
}
