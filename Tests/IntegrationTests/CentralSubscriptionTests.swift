import Foundation
import HostCore
import Runtime
import Testing
import Wire

extension WorldIntegration.CentralAPI {
    /// The CCCD writes a Bumble peripheral saw (`att_write` events on a descriptor 0x2902), in
    /// order, as their hex values.
    static func cccdWrites(_ world: WorldProcess, device: String, handle: UInt16) -> [String] {
        world.events("att_write").compactMap { e in
            guard e["device"]?.string == device, e["uuid"]?.string == "2902", e["handle"]?.int == Int(handle) else { return nil }
            return e["value"]?.string
        }
    }

    /// Connects to the world's heart-rate sensor and discovers it.
    static func heartRate(_ central: Central, _ world: WorldProcess) async throws -> (Peripheral, GATTCharacteristic) {
        let device = try world.device("Heart 1")
        let address = try DeviceAddress(parsing: device.address + "/random")
        let p = try await withTimeout(15, "connecting to Heart 1") { () async throws -> Peripheral in
            var plan = LinkPlan()
            plan.discover = false
            return try await central.connect(to: address, plan: plan)
        }
        let db = try await p.discover()
        let c = try #require(db.characteristic(.heartRateMeasurement), "no 2A37 in \(db)")
        _ = try #require(c.cccdHandle, "2A37 has no CCCD")
        return (p, c)
    }

    @Test("A subscribe stream that ends while the link stays up writes the CCCD back to 0; the peripheral stops notifying")
    func streamEndWritesTheCCCDBackToZero() async throws {
        let world = try await WorldProcess.start(["--heart", "1", "--speed", "0", "--environment", "0", "--distractors", "0", "--rate", "20"])
        defer { world.stop() }
        try await withCentral(world) { central in
            let (p, c) = try await Self.heartRate(central, world)
            let cccd = try #require(c.cccdHandle)
            let received = try await withTimeout(10, "five notifications") { () async throws -> Int in
                var n = 0
                for await _ in try await p.subscribe(valueHandle: c.valueHandle) {
                    n += 1
                    if n == 5 { break }
                }
                return n
            }
            #expect(received == 5)
            // The stream ended on the consuming side; the link is still up.
            try await world.wait("the CCCD written back to 0", timeout: 5) { _ in
                Self.cccdWrites(world, device: "Heart 1", handle: cccd) == ["0100", "0000"]
            }
            #expect(!world.events("peripheral_disconnected").contains { $0["device"]?.string == "Heart 1" })
            // Nothing more is sent once the peripheral has taken the 0 (give it 1 s: 20 ticks).
            let after = world.notifications(device: "Heart 1", uuid: "2A37").count
            try await Task.sleep(for: .seconds(1))
            #expect(world.notifications(device: "Heart 1", uuid: "2A37").count == after)
            // The link still carries requests.
            let location = try await p.read(handle: c.valueHandle + 3)
            #expect(location == [0x01], "Body Sensor Location: \(location)")
        }
    }

    /// The next `n` values of `stream` (its iterator ends with this call).
    static func take(_ n: Int, from stream: AsyncStream<[UInt8]>) async throws -> [[UInt8]] {
        try await withTimeout(10, "\(n) values") {
            var out: [[UInt8]] = []
            for await v in stream {
                out.append(v)
                if out.count == n { break }
            }
            return out
        }
    }

    @Test("Two streams on one characteristic write its CCCD once; it goes back to 0 only when the second ends")
    func twoStreamsShareOneCCCDWrite() async throws {
        let world = try await WorldProcess.start(["--heart", "1", "--speed", "0", "--environment", "0", "--distractors", "0", "--rate", "20"])
        defer { world.stop() }
        try await withCentral(world) { central in
            let (p, c) = try await Self.heartRate(central, world)
            let cccd = try #require(c.cccdHandle)
            var first: AsyncStream<[UInt8]>? = try await p.subscribe(valueHandle: c.valueHandle)
            var second: AsyncStream<[UInt8]>? = try await p.subscribe(valueHandle: c.valueHandle)
            // Both streams see values; the second registration wrote nothing.
            #expect(try await Self.take(3, from: try #require(first)).count == 3)
            #expect(try await Self.take(3, from: try #require(second)).count == 3)
            #expect(Self.cccdWrites(world, device: "Heart 1", handle: cccd) == ["0100"])

            // The first stream goes away: the other still listens, so the CCCD stays on.
            first = nil
            #expect(try await Self.take(10, from: try #require(second)).count == 10)
            #expect(Self.cccdWrites(world, device: "Heart 1", handle: cccd) == ["0100"])

            // The second goes too: the 0 is written, once, and the link stays up.
            second = nil
            try await world.wait("the CCCD written back to 0", timeout: 5) { _ in
                Self.cccdWrites(world, device: "Heart 1", handle: cccd).count >= 2
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(Self.cccdWrites(world, device: "Heart 1", handle: cccd) == ["0100", "0000"])
            #expect(first == nil && second == nil)
            #expect(try await p.read(handle: c.valueHandle + 3) == [0x01])
        }
    }
}
