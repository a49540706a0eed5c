import Foundation
import MQTT

/// One `MQTTClient` with every event it reported kept, for tests that drive clients with an
/// `MQTTPollLoop` and then look at what happened.
final class ClientHarness {
    let client: MQTTClient
    private(set) var events: [MQTTEvent] = []

    init(_ configuration: MQTTClientConfiguration, start: Bool = true) throws {
        client = try MQTTClient(configuration: configuration)
        if start { client.start(at: MQTTClock.now()) }
    }

    func drain() {
        while let e = client.nextEvent() { events.append(e) }
    }

    var received: [MQTTMessage] {
        events.compactMap { if case .message(let m) = $0 { return m } else { return nil } }
    }

    var delivered: [MQTTPublishID] {
        events.compactMap { if case .delivered(let id) = $0 { return id } else { return nil } }
    }

    func count(_ match: (MQTTEvent) -> Bool) -> Int { events.filter(match).count }

    var connections: Int { count { $0 == .connected } }

    func subscribedCount(_ filter: String) -> Int { count { $0 == .subscribed(filter) } }

    var failures: [String] {
        events.compactMap { e in
            switch e {
            case .connectFailed(let r, _), .connectionLost(let r, _): return r
            default: return nil
            }
        }
    }
}

/// Drives `harnesses` in one poll loop until `done` holds or `timeout` seconds pass.
@discardableResult
func drive(_ harnesses: [ClientHarness], timeout: Double, until done: () -> Bool) -> Bool {
    let loop = MQTTPollLoop(harnesses.map(\.client))
    return loop.run(timeout: timeout) {
        for h in harnesses { h.drain() }
        return done()
    }
}

enum ProbePaths {
    /// A product of the same build as the test executable (`swift build` puts both in
    /// `.build/<triple>/<configuration>/`).
    static func executable(_ name: String) -> String? {
        guard let arg0 = CommandLine.arguments.first else { return nil }
        let exe = URL(fileURLWithPath: arg0, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        var dir = exe.standardizedFileURL.deletingLastPathComponent()
        // Inside the .xctest bundle on some layouts: climb until the product is found.
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }
}
