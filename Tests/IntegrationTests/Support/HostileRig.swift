import Foundation
import HostCore
import Runtime
import Testing
import Wire

/// One hostile heart-rate peer (`Heart 1` of a world started with `--hostile`) and a `Central`
/// in this process, connected to it without a plan of its own (no MTU exchange, no discovery
/// unless asked), so each test drives the procedure that meets the misbehaviour and sees its
/// result directly.
struct HostileRig {
    let world: WorldProcess
    let central: Central
    let heart: DeviceAddress

    /// GAP Device Name value handle in the world's databases (Bumble puts Generic Access
    /// first: service 0x0001, declaration 0x0002, value 0x0003).
    static let deviceNameHandle: UInt16 = 0x0003

    /// Starts a world whose only sensor is `Heart 1` with `behaviours`, opens a Central on it,
    /// runs `body` and always closes both.
    static func run(_ behaviours: String, rate: Int = 0, extraOptions: [String] = [], sinks: [any PacketSinkFactory] = [],
                    _ body: (HostileRig) async throws -> Void) async throws {
        var options = ["--heart", "1", "--speed", "0", "--environment", "0", "--distractors", "0", "--rate", "\(rate)"]
        if !behaviours.isEmpty { options += ["--hostile", behaviours] }
        let world = try await WorldProcess.start(options + extraOptions)
        defer { world.stop() }
        var bytes = (0..<6).map { _ in UInt8.random(in: 0...255) }
        bytes[0] |= 0xC0   // random static (Core Spec v5.4 Vol 6, Part B, §1.3.2.1)
        let own = try #require(BDAddress(bigEndian: bytes))
        let port = world.hciPort
        let central = try await withTimeout(15, "Central.open") {
            try await Central.open(.tcp(host: "127.0.0.1", port: port),
                                   configuration: HostConfiguration(ownAddress: .randomStatic(own)), sinks: sinks)
        }
        let heart = DeviceAddress(try #require(BDAddress(string: try world.device("Heart 1").address)), type: .randomDevice)
        do {
            try await body(HostileRig(world: world, central: central, heart: heart))
        } catch {
            await central.close()
            throw error
        }
        await central.close()
    }

    /// Connects to the hostile heart with `mtu` to exchange (nil: none) and no discovery.
    func connect(mtu: UInt16? = nil) async throws -> Peripheral {
        var plan = LinkPlan()
        plan.mtu = mtu
        plan.discover = false
        plan.connectTimeout = HostDuration.seconds(5)
        let p = plan, central = self.central, heart = self.heart
        return try await withTimeout(10, "connecting to the hostile heart") {
            try await central.connect(to: heart, plan: p)
        }
    }

    /// Runs `operation` with a time limit and returns the HostError it failed with (nil when it
    /// succeeded).
    func failure(_ what: String, seconds: Double = 5,
                 _ operation: @escaping @Sendable () async throws -> GATTResult) async throws -> HostError? {
        do {
            _ = try await withTimeout(seconds, what, operation)
            return nil
        } catch let CentralError.host(error) {
            return error
        }
    }

    /// The link is still up and usable: the controller holds one connection and a plain read
    /// of the GAP Device Name gives "Heart 1".
    func expectLinkUsable(_ p: Peripheral, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let status = try world.control(#"{"cmd":"status"}"#)
        #expect(status["host"]?["connections"]?.array?.count == 1, "the link is gone: \(String(describing: status["host"]))",
                sourceLocation: sourceLocation)
        let value = try await withTimeout(5, "reading the Device Name after the misbehaviour") {
            try await p.perform(.read(handle: HostileRig.deviceNameHandle))
        }
        guard case .value(let bytes) = value else {
            Issue.record("read returned \(value)", sourceLocation: sourceLocation)
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == "Heart 1", "Device Name \(bytes)", sourceLocation: sourceLocation)
    }

    /// The world's `hostile` events for one behaviour, once its log (read on another thread)
    /// has caught up with the count the world itself keeps: the count is raised before the
    /// misbehaving PDU goes out, the event line may arrive after the host already reacted.
    func performed(_ behaviour: String) async throws -> [JSONValue] {
        let status = try world.control(#"{"cmd":"status"}"#)
        let device = status["devices"]?.array?.first { $0["name"]?.string == "Heart 1" }
        let count = device?["hostile"]?["counts"]?[behaviour]?.int ?? 0
        let logged = { (events: [JSONValue]) in
            events.filter { $0["event"]?.string == "hostile" && $0["behaviour"]?.string == behaviour }
        }
        try await world.wait("\(count) '\(behaviour)' events", timeout: 5) { logged($0).count >= count }
        return logged(world.events)
    }
}

extension HostError {
    /// The message of a protocol violation, nil for any other error.
    var violation: String? {
        if case .protocolViolation(let m) = self { return m }
        return nil
    }
}
