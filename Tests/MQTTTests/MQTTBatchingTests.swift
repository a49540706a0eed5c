import Foundation
import Glibc
import TestSupport
import Testing
@testable import MQTT

/// How the client saves system calls and wake-ups against Debian's mosquitto: a loop turn's
/// publishes wait in libmosquitto and leave together at `flush`, and while messages are in flight
/// the broker's acknowledgements are read on the loop's own turns instead of waking it
/// (Docs/performance.md, "The gateway's cost per notification").
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled, MosquittoBroker.skipReason), .ownThread)
struct MQTTBatchingTests {
    @Test func aTurnsPublishesWaitForFlushAndLeaveTogetherInOrder() throws {
        let broker = try MosquittoBroker()
        let sub = try ClientHarness(MQTTBrokerTests.config(broker, "sub"))
        try sub.client.subscribe("turn/#", qos: .atLeastOnce)
        let pub = try ClientHarness(MQTTBrokerTests.config(broker, "pub"))
        #expect(drive([sub, pub], timeout: 10) { sub.subscribedCount("turn/#") == 1 && pub.connections == 1 })

        for i in 1...5 { try pub.client.publish(MQTTMessage(topic: "turn/n", text: "\(i)", qos: .atLeastOnce)) }
        #expect(pub.client.wantsWrite, "queued, not written")
        // Only the subscriber's socket is served: the publisher's packets stay where they are.
        drive([sub], timeout: 0.3) { false }
        #expect(sub.received.isEmpty)
        pub.client.flush(at: MQTTClock.now())
        #expect(!pub.client.wantsWrite, "all five written by one flush")
        #expect(drive([sub], timeout: 10) { sub.received.count == 5 }, "\(sub.events)")
        #expect(sub.received.map(\.text) == ["1", "2", "3", "4", "5"])
        #expect(drive([pub], timeout: 10) { pub.delivered.count == 5 }, "\(pub.events)")
    }

    @Test func acknowledgementsAreReadOnTheLoopsTurnsWithoutPollingForThem() throws {
        let broker = try MosquittoBroker()
        let pub = try ClientHarness(MQTTBrokerTests.config(broker, "pub"))
        #expect(drive([pub], timeout: 10) { pub.connections == 1 })
        #expect(pub.client.pollEvents & Int16(POLLIN) != 0, "nothing in flight: polled for reading")

        broker.freeze()
        let id = try pub.client.publish(MQTTMessage(topic: "ack/n", text: "1", qos: .atLeastOnce))
        let t0 = MQTTClock.now()
        pub.client.flush(at: t0)
        #expect(pub.client.statistics.inFlight == 1)
        #expect(pub.client.pollEvents & Int16(POLLIN) == 0, "in flight and just read: not polled for reading")
        let deadline = try #require(pub.client.nextDeadline)
        #expect(deadline <= t0 + MQTTClient.acknowledgementReadLimit, "read again within the limit even if no turn comes")

        // The broker answers; the loop's turns (flush, every 3 ms here) read the PUBACK, and
        // nothing polls the socket.
        broker.thaw()
        let end = t0 + 10_000_000_000
        while pub.delivered.isEmpty && MQTTClock.now() < end {
            usleep(3_000)
            pub.client.flush(at: MQTTClock.now())
            pub.drain()
        }
        #expect(pub.delivered == [id])
        #expect(pub.client.pollEvents & Int16(POLLIN) != 0, "nothing in flight again: polled for reading")
    }

    @Test func aBacklogIsReadAsItComesNotOnTurns() throws {
        let broker = try MosquittoBroker()
        let pub = try ClientHarness(MQTTBrokerTests.config(broker, "pub", queueLimit: 5000))
        #expect(drive([pub], timeout: 10) { pub.connections == 1 })
        // More than the in-flight window: acknowledgements open it, so they wake the loop.
        for i in 1...2000 { try pub.client.publish(MQTTMessage(topic: "backlog/n", text: "\(i)", qos: .atLeastOnce)) }
        pub.client.flush(at: MQTTClock.now())
        #expect(pub.client.pollEvents & Int16(POLLIN) != 0)
        // Whenever messages wait for the window, the socket is polled for reading: 2,000
        // messages through a 64-message window read only every 20 ms would take 0.6 s at least.
        var unpolledWhileWaiting = 0
        #expect(drive([pub], timeout: 30) {
            let s = pub.client.statistics
            if s.queued > s.inFlight && pub.client.pollEvents & Int16(POLLIN) == 0 { unpolledWhileWaiting += 1 }
            return pub.delivered.count == 2000
        }, "\(pub.delivered.count) delivered")
        #expect(unpolledWhileWaiting == 0)
    }
}
