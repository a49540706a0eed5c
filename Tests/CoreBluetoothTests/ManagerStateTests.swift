import CoreBluetooth
import Foundation
import Synchronization
import Testing
import TestSupport

/// An app's state observer, written as a Swift 6 iOS app writes one: a main-actor class
/// whose delegate conformance is `@preconcurrency` (the nil queue calls it on the main queue).
@MainActor
final class StateRecorder: NSObject, @preconcurrency CBCentralManagerDelegate {
    var states: [CBManagerState] = []

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        states.append(central.state)
    }
}

@Suite("CBCentralManager's state")
struct ManagerStateTests {
    @Test("With nothing at the adapter the state is unsupported, reported after init to a delegate set after init")
    @MainActor
    func noAdapterIsUnsupported() async {
        let app = StateRecorder()
        let central = CBCentralManager(delegate: nil, queue: nil, options: [CBCentralManagerOptionRTStackAdapterKey: "tcp:127.0.0.1:1"])
        #expect(central.state == .unknown)
        central.delegate = app
        #expect(app.states.isEmpty, "the first update is asynchronous")
        #expect(await eventually(60) { !app.states.isEmpty })
        #expect(app.states == [.unsupported])

        // A call iOS refuses before .poweredOn is ignored (with its API MISUSE line).
        central.scanForPeripherals(withServices: nil)
        #expect(!central.isScanning)
    }

    @Test("A bad RTSTACK_ADAPTER value is unsupported too (the log names the value)")
    @MainActor
    func badAdapterText() async {
        let app = StateRecorder()
        let central = CBCentralManager(delegate: app, queue: nil, options: [CBCentralManagerOptionRTStackAdapterKey: "bluetooth"])
        #expect(await eventually(60) { !app.states.isEmpty })
        #expect(app.states == [.unsupported] && central.state == .unsupported)
    }

    @Test("Delegate calls arrive on the queue given")
    func customQueue() async {
        let queue = DispatchQueue(label: "app.ble")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let probe = QueueProbe(key: key)
        let central = CBCentralManager(delegate: probe, queue: queue, options: [CBCentralManagerOptionRTStackAdapterKey: "tcp:127.0.0.1:1"])
        // 60 s: on CI's loaded machine the refused connection and the hop to the queue have
        // taken more than 10 s; a call on the wrong queue is recorded as nil and fails below.
        let end = Date().addingTimeInterval(60)
        while probe.calls.withLock({ $0.isEmpty }), Date() < end { try? await Task.sleep(for: .milliseconds(10)) }
        let calls = probe.calls.withLock { $0 }
        #expect(!calls.isEmpty, "no state update within 60 s (state \(central.state.rawValue))")
        #expect(calls.allSatisfy { $0 == 7 }, "queue-specific values seen by the delegate: \(calls)")
        withExtendedLifetime(central) {}
    }
}

/// Records, for every state update, the queue-specific value of the queue it came on (nil:
/// another queue).
final class QueueProbe: NSObject, CBCentralManagerDelegate, Sendable {
    let key: DispatchSpecificKey<Int>
    let calls = Mutex<[Int?]>([])
    init(key: DispatchSpecificKey<Int>) { self.key = key }
    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        let value = DispatchQueue.getSpecific(key: key)
        calls.withLock { $0.append(value) }
    }
}
