import Foundation
import HostCore
import Runtime
import Synchronization
import Testing
import Wire

extension WorldIntegration {
    /// The async Swift API (`Central`, `Peripheral`) in this process against the world.
    @Suite("Async Central API")
    struct CentralAPI {
        @Test("Six links at once: scan, connect concurrently, discover, subscribe, every link's values as the world sent them")
        func sixLinks() async throws {
            let world = try await WorldProcess.start(["--heart", "2", "--speed", "2", "--environment", "2", "--rate", "10"])
            defer { world.stop() }
            let sensors = world.devices.filter { SessionRole(rawValue: $0.kind) != nil }
            try #require(sensors.count == 6, "world devices: \(world.devices.map(\.name))")

            try await withCentral(world) { central in
                // Scan until every sensor was seen advertising.
                let wanted = Set(sensors.map(\.address))
                let found = try await withTimeout(10, "scanning for the six sensors") {
                    var seen: [String: DeviceAddress] = [:]
                    for await ad in central.scan() where ad.connectable && !ad.isScanResponse {
                        if wanted.contains(ad.address.address.string) { seen[ad.address.address.string] = ad.address }
                        if seen.count == wanted.count { break }
                    }
                    return seen
                }
                try #require(found.count == 6, "found \(found.keys.sorted())")
                #expect(found.values.allSatisfy { $0.type == .randomDevice })

                // Connect to all six at once; the host queues what the controller cannot take.
                let peripherals = try await withTimeout(20, "connecting six links") {
                    try await withThrowingTaskGroup(of: (String, Peripheral).self) { group in
                        for (key, address) in found {
                            group.addTask {
                                var plan = LinkPlan()
                                plan.discover = false
                                return (key, try await central.connect(to: address, plan: plan))
                            }
                        }
                        var out: [String: Peripheral] = [:]
                        for try await (key, p) in group { out[key] = p }
                        return out
                    }
                }
                #expect(Set(peripherals.values.map(\.link)).count == 6)
                let status = try world.control(#"{"cmd":"status"}"#)
                #expect(status["host"]?["connections"]?.array?.count == 6, "the controller holds \(String(describing: status["host"]?["connections"]))")

                // On every link at once: discover, subscribe to the measurement, take 5 values.
                let wantedValues = 5
                let received = try await withTimeout(20, "discovering, subscribing and receiving on six links") {
                    try await withThrowingTaskGroup(of: (String, [[UInt8]]).self) { group in
                        for device in sensors {
                            guard let role = SessionRole(rawValue: device.kind), let p = peripherals[device.address] else { continue }
                            group.addTask {
                                let db = try await p.discover()
                                guard let c = db.characteristic(role.characteristic) else {
                                    throw IntegrationFailure("\(device.name): \(role.characteristic) not discovered")
                                }
                                #expect(c.canNotify && c.cccdHandle != nil, "\(device.name): \(c)")
                                var values: [[UInt8]] = []
                                for await v in try await p.subscribe(valueHandle: c.valueHandle) {
                                    values.append(v)
                                    if values.count == wantedValues { break }
                                }
                                return (device.name, values)
                            }
                        }
                        var out: [String: [[UInt8]]] = [:]
                        for try await (name, values) in group { out[name] = values }
                        return out
                    }
                }

                for device in sensors {
                    guard let role = SessionRole(rawValue: device.kind) else { continue }
                    let values = received[device.name] ?? []
                    #expect(values.count >= 3, "\(device.name): \(values.count) notifications")
                    try await world.wait("\(values.count) notifications of \(device.name)", timeout: 5) { _ in
                        world.notifications(device: device.name, uuid: role.worldUUID).count >= values.count
                    }
                    let sent = world.notifications(device: device.name, uuid: role.worldUUID).prefix(values.count)
                    #expect(values == sent.map(\.value),
                            "\(device.name): got \(values.map(HexText.string)), the world sent \(sent.map { HexText.string($0.value) })")
                    #expect(sent.map(\.seq) == Array(0..<sent.count), "\(device.name): seqs \(sent.map(\.seq))")
                }
                let warnings = await central.warnings()
                #expect(warnings.isEmpty, "host warnings: \(warnings)")
            }
            // close() disconnected every link.
            try await world.wait("six host disconnections", timeout: 5) { e in
                e.filter { $0["event"]?.string == "disconnected" && $0["by"]?.string == "host" }.count == 6
            }
        }

        @Test("notificationBatches: the values of a heart-rate sensor in batches, in order, as the world sent them")
        func notificationBatches() async throws {
            let world = try await WorldProcess.start(["--heart", "1", "--speed", "0", "--environment", "0", "--rate", "50"])
            defer { world.stop() }
            let device = try #require(world.devices.first { $0.kind == "heart" })
            let role = try #require(SessionRole(rawValue: device.kind))
            try await withCentral(world) { central in
                let address = try await withTimeout(10, "scanning for the heart-rate sensor") { () async throws -> DeviceAddress? in
                    for await ad in central.scan() where ad.connectable && ad.address.address.string == device.address {
                        return ad.address
                    }
                    return nil
                }
                let peer = try #require(address)
                var plan = LinkPlan()
                plan.discover = false
                let p = try await central.connect(to: peer, plan: plan)
                let db = try await p.discover()
                let c = try #require(db.characteristic(role.characteristic))
                let wantedValues = 10
                let (values, batches) = try await withTimeout(15, "receiving \(wantedValues) values in batches") {
                    var values: [[UInt8]] = []
                    var batches = 0
                    for await batch in try await p.notificationBatches(valueHandle: c.valueHandle) {
                        batches += 1
                        #expect(!batch.isEmpty)
                        values.append(contentsOf: batch.map { Array($0) })
                        if values.count >= wantedValues { break }
                    }
                    return (values, batches)
                }
                #expect(values.count >= wantedValues)
                #expect(batches >= 1 && batches <= values.count)
                try await world.wait("\(values.count) notifications of \(device.name)", timeout: 5) { _ in
                    world.notifications(device: device.name, uuid: role.worldUUID).count >= values.count
                }
                let sent = world.notifications(device: device.name, uuid: role.worldUUID).prefix(values.count)
                #expect(values == sent.map(\.value),
                        "got \(values.map(HexText.string)), the world sent \(sent.map { HexText.string($0.value) })")
            }
        }

        @Test("Connecting to an absent device fails with connectTimeout after 2 s, cancelled with LE Create Connection Cancel")
        func absentDeviceTimesOut() async throws {
            let world = try await WorldProcess.start(["--heart", "1", "--speed", "0", "--environment", "0", "--distractors", "0"])
            defer { world.stop() }
            let commands = CommandRecorder()
            try await withCentral(world, sinks: [commands]) { central in
                let absent = DeviceAddress(try #require(BDAddress(string: "C9:00:00:00:00:09")), type: .randomDevice)
                var plan = LinkPlan()
                plan.connectTimeout = HostDuration.seconds(2)
                plan.discover = false
                let absentPlan = plan
                let start = Date()
                let outcome: Result<Peripheral, any Error>
                do {
                    outcome = .success(try await withTimeout(10, "connect to an absent device") {
                        try await central.connect(to: absent, plan: absentPlan)
                    })
                } catch {
                    outcome = .failure(error)
                }
                let elapsed = seconds(since: start)
                switch outcome {
                case .success:
                    Issue.record("connected to a device that does not exist")
                case .failure(let error):
                    guard case CentralError.host(.connectTimeout(let a))? = error as? CentralError else {
                        Issue.record("expected HostError.connectTimeout, got \(error)")
                        break
                    }
                    #expect(a == absent)
                }
                #expect(elapsed >= 1.9 && elapsed < 4.0, "failed after \(elapsed) s")

                // The host cancelled the attempt (Core Spec v5.4 Vol 4, Part E, §7.8.13:
                // LE Create Connection Cancel, opcode 0x200E) and the controller confirmed it.
                let sent = commands.opcodes
                let create = sent.lastIndex { $0 == 0x200D || $0 == 0x2043 }
                let cancel = sent.lastIndex { $0 == 0x200E }
                #expect(create != nil && cancel != nil && cancel! > create!,
                        "commands sent: \(sent.map { "0x" + String($0, radix: 16) })")
                try await world.wait("connect_cancelled for C9:00:00:00:00:09", timeout: 3) { e in
                    e.contains { $0["event"]?.string == "connect_cancelled" && $0["peer"]?.string?.hasPrefix("C9:00:00:00:00:09") == true }
                }

                // Nothing is left pending: a real device connects right after.
                let heart = DeviceAddress(try #require(BDAddress(string: world.device("Heart 1").address)), type: .randomDevice)
                var quick = LinkPlan()
                quick.discover = false
                let quickPlan = quick
                let p = try await withTimeout(10, "connect to Heart 1 after the cancel") {
                    try await central.connect(to: heart, plan: quickPlan)
                }
                await p.disconnect()
            }
        }

        /// Opens a Central on the world's controller with a fresh random static address, runs
        /// `body`, and always closes it.
        func withCentral(_ world: WorldProcess, sinks: [any PacketSinkFactory] = [],
                                 _ body: (Central) async throws -> Void) async throws {
            var bytes = (0..<6).map { _ in UInt8.random(in: 0...255) }
            bytes[0] |= 0xC0   // random static: the two most significant bits are 1 (Vol 6, Part B, §1.3.2.1)
            let own = try #require(BDAddress(bigEndian: bytes))
            try await WorldIntegration.withCentral(world, configuration: HostConfiguration(ownAddress: .randomStatic(own)),
                                                   sinks: sinks, body)
        }
    }
}

/// Records the opcode of every HCI command the host sends.
final class CommandRecorder: PacketSinkFactory, Sendable {
    private let sent = Mutex<[UInt16]>([])

    var opcodes: [UInt16] { sent.withLock { $0 } }

    func makeSink() -> PacketTap.Sink {
        { [self] record in
            guard record.packet.type == .command, record.packet.bytes.count >= 2 else { return }
            let b = record.packet.bytes
            let opcode = UInt16(b[b.startIndex]) | UInt16(b[b.startIndex + 1]) << 8
            sent.withLock { $0.append(opcode) }
        }
    }
}
