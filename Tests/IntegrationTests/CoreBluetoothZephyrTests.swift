import CoreBluetooth
import CoreBluetoothApps
import Foundation
import Testing
import TestSupport

extension ZephyrIntegration {
    /// The iOS-shaped apps against Zephyr's own link layer and peripherals (BabbleSim): the
    /// names there are only in the scan responses, the values are the firmware's. Skipped, as
    /// every Zephyr test, when the world's folder is absent.
    @Suite("CoreBluetooth apps against the Zephyr world")
    @MainActor
    struct CoreBluetoothApps {
        static func options(_ world: BsimWorld, _ dir: URL) -> [String: Any] {
            [CBCentralManagerOptionRTStackAdapterKey: "serial:\(world.hciPTY)@1000000",
             CBCentralManagerOptionRTStackStateDirectoryKey: dir.path]
        }

        // Waits as long as the other Zephyr tests: CI runs many worlds at once and their simulated
        // seconds then run slower than real ones (20 s was not enough there for a first scan).
        @Test("Scan list with the names of the scan responses; connect to the heart-rate sensor and read it")
        func scanList() async throws {
            try await ZephyrIntegration.withWorld(["hr", "esp"], label: "cb-scan") { world, dir in
                let app = ScanListApp(options: Self.options(world, dir))
                #expect(await eventually(120) { app.row(named: "Zephyr Heartrate Sensor") != nil && app.row(named: "ESP peripheral") != nil },
                        "rows: \(app.rows.values.map { $0.name ?? "?" }), state: \(app.central.state.rawValue)")
                try await Task.sleep(for: .seconds(1))
                #expect(app.rows.values.allSatisfy { $0.discoveries == 1 && $0.rssi == -35 }, "BabbleSim's ideal channel gives −35 dBm")
                app.tap("Zephyr Heartrate Sensor")
                #expect(await eventually(40) { app.values[CBUUID(string: "2A38")] != nil && app.pendingReads == 0 },
                        "read so far: \(app.values.keys.map(\.uuidString))")
                #expect(app.values[CBUUID(string: "2A38")] == Data([1]), "Body Sensor Location: Chest")
                #expect(app.values[CBUUID(string: "2A29")] == Data("Manufacturer".utf8))
                app.central.cancelPeripheralConnection(try #require(app.selected))
                #expect(await eventually(30) { app.disconnected })
            }
        }

        @Test("The runner's sensors: heart rate and the environmental sensor by advertised service, live values, End Session")
        func runnersSensors() async throws {
            try await ZephyrIntegration.withWorld(["hr", "esp"], label: "cb-runner") { world, dir in
                let app = RunnerApp(sensors: [
                    CBUUID(string: "180D"): (CBUUID(string: "180D"), [CBUUID(string: "2A37")]),
                    CBUUID(string: "181A"): (CBUUID(string: "181A"), [CBUUID(string: "2A6E")]),
                ], options: Self.options(world, dir))
                #expect(await eventually(120) { (app.shown[CBUUID(string: "2A37")]?.count ?? 0) >= 3 && (app.shown[CBUUID(string: "2A6E")]?.count ?? 0) >= 2 },
                        "shown: \(app.shown.mapValues(\.count)), notifying: \(app.notifying)")
                // The firmware's bpm rises by one a second (90 + seconds since start, wrapping at 159).
                let bpm = (app.shown[CBUUID(string: "2A37")] ?? []).compactMap { $0.count > 1 ? Int($0[$0.startIndex + 1]) : nil }
                #expect(bpm.allSatisfy { (90...159).contains($0) }, "\(bpm)")
                #expect(zip(bpm, bpm.dropFirst()).allSatisfy { $1 == $0 + 1 || $1 == 90 || $1 == $0 + 2 }, "\(bpm)")
                app.endSession()
                #expect(await eventually(30) { app.ended.count == 2 })
                #expect(app.ended.allSatisfy { $0.1 == nil })
            }
        }

        @Test("One central, two devices connected and disconnected one by one")
        func fleet() async throws {
            try await ZephyrIntegration.withWorld(["hr", "esp"], label: "cb-fleet") { world, dir in
                let app = FleetApp(services: [CBUUID(string: "180F")], options: Self.options(world, dir))
                #expect(await eventually(120) { app.devices.count == 2 }, "both advertise the Battery Service; found \(app.devices.count), state: \(app.central.state.rawValue)")
                for d in app.devices {
                    app.toggle(d)
                    #expect(await eventually(40) { d.isConnected })
                }
                for (n, d) in app.devices.enumerated() {
                    app.toggle(d)
                    #expect(await eventually(30) { !d.isConnected })
                    #expect(d.lastDisconnectError == nil)
                    #expect(app.devices.dropFirst(n + 1).allSatisfy { $0.peripheral.state == .connected })
                }
            }
        }
    }
}
