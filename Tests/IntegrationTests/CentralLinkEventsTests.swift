import Foundation
import HostCore
import Runtime
import Testing
import Wire

extension WorldIntegration.CentralAPI {
    @Test("Peripheral.events: the MTU first, Service Changed, then the link's end with its reason, and the stream finishes")
    func linkEvents() async throws {
        let world = try await WorldProcess.start(["--heart", "1", "--speed", "0", "--environment", "0", "--distractors", "0"])
        defer { world.stop() }
        let device = try #require(world.devices.first { $0.kind == "heart" })
        try await withCentral(world) { central in
            let address = try await withTimeout(10, "scanning for the heart-rate sensor") { () async throws -> DeviceAddress? in
                for await ad in central.scan() where ad.connectable && ad.address.address.string == device.address {
                    return ad.address
                }
                return nil
            }
            var plan = LinkPlan()
            plan.mtu = 185
            let p = try await central.connect(to: try #require(address), plan: plan)
            let events = p.events()
            let seen = try await withTimeout(20, "the link's events") { () async throws -> [LinkEvent] in
                var seen: [LinkEvent] = []
                for await e in events {
                    seen.append(e)
                    if case .mtuChanged = e, seen.count == 1 {
                        _ = try world.control(#"{"cmd":"change_db","device":"Heart 1","force":true}"#)
                    }
                    if e == .databaseChanged { _ = try world.control(#"{"cmd":"drop","device":"Heart 1","reason":19}"#) }
                }
                return seen
            }
            guard case .mtuChanged(let mtu) = seen.first else {
                Issue.record("the first event is not the MTU: \(seen)")
                return
            }
            #expect(mtu > 23 && mtu <= 185)
            #expect(seen.contains(.databaseChanged))
            #expect(seen.last == .disconnected(HCIStatus(rawValue: 0x13)), "\(seen)")
            // Asked for after the end: finishes at once.
            var after = 0
            for await _ in p.events() { after += 1 }
            #expect(after == 0)
        }
    }
}
