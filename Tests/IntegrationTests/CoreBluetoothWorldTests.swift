import CoreBluetooth
import CoreBluetoothApps
import Foundation
import Testing
import TestSupport

extension WorldIntegration {
    /// iOS-shaped CoreBluetooth apps (Tests/CoreBluetoothApps: NSObject
    /// delegates, a nil queue, nothing of rtstack) against the world: the adapter is given as
    /// an app on a board gets it, through rtstack's option key (`RTSTACK_ADAPTER`).
    @Suite("CoreBluetooth apps against the Bumble world")
    @MainActor
    struct CoreBluetoothApps {
        static func options(_ world: WorldProcess, _ label: String) throws -> [String: Any] {
            [CBCentralManagerOptionRTStackAdapterKey: "tcp:127.0.0.1:\(world.hciPort)",
             CBCentralManagerOptionRTStackStateDirectoryKey: try PackagePaths.temporaryDirectory("cb-\(label)").path]
        }

        static func connections(_ world: WorldProcess) throws -> Int {
            try world.control(#"{"cmd":"status"}"#)["host"]?["connections"]?.array?.count ?? -1
        }

        @Test("Scan list: every device once with its RSSI and name (the Thingy's from its scan response); tap one, connect, read")
        func scanList() async throws {
            let world = try await WorldProcess.start()
            defer { world.stop() }
            let app = ScanListApp(options: try Self.options(world, "scan-list"))
            let named = ["Heart 1", "Speed 1", "Thingy"]
            #expect(await eventually(40) { named.allSatisfy { app.row(named: $0) != nil } },
                    "rows: \(app.rows.values.map { $0.name ?? "?" })")
            try await Task.sleep(for: .seconds(1.5))   // 15 more advertising events of each
            #expect(app.rows.count >= 4, "the connectable distractor is listed too: \(app.rows.values.map { $0.name ?? "?" })")
            for row in app.rows.values {
                #expect(row.discoveries == 1, "\(row.name ?? "?") was reported \(row.discoveries) times in one scan")
                #expect((-127 ... 20).contains(row.rssi), "\(row.name ?? "?"): RSSI \(row.rssi)")
            }
            let heart = try #require(app.row(named: "Heart 1"))
            #expect(heart.peripheral.name == "Heart 1")

            app.tap("Heart 1")
            #expect(await eventually(40) { app.connected && app.values[CBUUID(string: "2A38")] != nil && app.pendingReads == 0 },
                    "read so far: \(app.values.keys.map(\.uuidString))")
            #expect(app.values[CBUUID(string: "2A38")] == Data([1]), "Body Sensor Location: Chest")
            #expect(app.values[CBUUID(string: "2A29")] == Data("rtstack test world".utf8), "Manufacturer Name String")
            #expect(heart.peripheral.state == .connected && !app.central.isScanning)
            #expect(app.central.retrievePeripherals(withIdentifiers: [heart.peripheral.identifier]).first === heart.peripheral)
            #expect(app.central.retrieveConnectedPeripherals(withServices: [CBUUID(string: "180D")]).first === heart.peripheral)
            #expect(try Self.connections(world) == 1)

            app.central.cancelPeripheralConnection(heart.peripheral)
            #expect(await eventually(30) { app.disconnected })
            #expect(heart.peripheral.state == .disconnected && heart.peripheral.services == nil)
        }

        @Test("The runner's three sensors by advertised service, live values as the world sent them, then End Session")
        func runnersSensors() async throws {
            let world = try await WorldProcess.start(["--rate", "10"])
            defer { world.stop() }
            let thingy = CBUUID(string: "EF680100-9B35-4933-9B10-52FFA9740042")
            let weather = CBUUID(string: "EF680200-9B35-4933-9B10-52FFA9740042")
            let temperature = CBUUID(string: "EF680201-9B35-4933-9B10-52FFA9740042")
            let app = RunnerApp(sensors: [
                CBUUID(string: "180D"): (CBUUID(string: "180D"), [CBUUID(string: "2A37")]),
                CBUUID(string: "1814"): (CBUUID(string: "1814"), [CBUUID(string: "2A53")]),
                thingy: (weather, [temperature]),
            ], options: try Self.options(world, "runner"))
            let measurements = [CBUUID(string: "2A37"), CBUUID(string: "2A53"), temperature]
            #expect(await eventually(40) { measurements.allSatisfy { (app.shown[$0]?.count ?? 0) >= 5 } },
                    "shown: \(app.shown.mapValues(\.count)), notifying: \(app.notifying)")
            #expect(app.notifying == Set(measurements))
            #expect(try Self.connections(world) == 3)

            app.endSession()
            #expect(await eventually(30) { app.ended.count == 3 })
            #expect(app.ended.allSatisfy { $0.1 == nil }, "End Session is no error: \(app.ended.map { String(describing: $0.1) })")
            #expect(app.connectedFor.values.allSatisfy { $0.state == .disconnected })
            #expect(try Self.connections(world) == 0)
            // Every value shown is one the world sent, in the world's order.
            let sent = world.notifications(device: "Heart 1", uuid: "2A37").map { Data($0.value) }
            let shown = app.shown[CBUUID(string: "2A37")] ?? []
            let start = try #require(sent.firstIndex(of: shown[0]), "the first value shown was never sent")
            #expect(Array(sent[start ..< min(sent.count, start + shown.count)]) == shown)
        }

        @Test("Scan by service, read, write, read back; the board ending the link is reported, the app scans again and finds what it wrote")
        func readWriteRescan() async throws {
            let world = try await WorldProcess.start()
            defer { world.stop() }
            let app = LEDApp(service: CBUUID(string: "EF680100-9B35-4933-9B10-52FFA9740042"),
                             characteristic: CBUUID(string: "EF680101-9B35-4933-9B10-52FFA9740042"),
                             options: try Self.options(world, "led"))
            #expect(await eventually(40) { app.reads.count == 1 })
            #expect(app.reads.first == Data("Thingy".utf8))

            app.write("Run 1")
            #expect(await eventually(30) { app.reads.count == 2 })
            #expect(app.writes.count == 1 && app.writes[0] == nil)
            #expect(app.reads.last == Data("Run 1".utf8))

            app.write("eleven char")   // the Thingy takes 1 to 10 bytes
            #expect(await eventually(30) { app.writes.count == 2 })
            let refused = try #require(app.writes[1] as? CBATTError)
            #expect(refused.code == .invalidAttributeValueLength)

            // The Thingy ends the link (Remote User Terminated Connection); the app scans again.
            _ = try world.control(#"{"cmd":"drop","device":"Thingy 1","reason":19}"#)
            #expect(await eventually(30) { app.disconnections.count == 1 })
            #expect((app.disconnections[0] as? CBError)?.code == .peripheralDisconnected, "\(String(describing: app.disconnections[0]))")
            #expect(await eventually(40) { app.connections == 2 && app.reads.count == 3 })
            #expect(app.reads.last == Data("Run 1".utf8))
        }

        @Test("One central, N devices, each connected then disconnected one by one, always the same object per device")
        func fleet() async throws {
            let world = try await WorldProcess.start(["--heart", "4", "--speed", "0", "--environment", "0", "--distractors", "0"])
            defer { world.stop() }
            let app = FleetApp(services: [CBUUID(string: "180D")], options: try Self.options(world, "fleet"))
            #expect(await eventually(40) { app.devices.count == 4 })
            let devices = app.devices
            for (n, d) in devices.enumerated() {
                app.toggle(d)
                #expect(await eventually(40) { d.isConnected }, "device \(n)")
                #expect(try Self.connections(world) == n + 1)
            }
            for (n, d) in devices.enumerated() {
                app.toggle(d)
                #expect(await eventually(30) { !d.isConnected }, "device \(n)")
                #expect(d.lastDisconnectError == nil)
                #expect(devices.dropFirst(n + 1).allSatisfy { $0.peripheral.state == .connected })
                #expect(try Self.connections(world) == devices.count - n - 1)
            }
            // Again: the same object reconnects.
            app.toggle(devices[0])
            #expect(await eventually(40) { devices[0].isConnected && devices[0].connections == 2 })
            #expect(app.devices.count == 4 && app.devices[0] === devices[0])
        }
    
        @Test("The cb-heart-rate example, given its adapter by RTSTACK_ADAPTER alone, prints the heart rate the world sends")
        func heartRateExample() async throws {
            let world = try await WorldProcess.start(["--heart", "1", "--speed", "0", "--environment", "0", "--distractors", "0", "--rate", "4"])
            defer { world.stop() }
            let binary = try PackagePaths.rtstackBinary().deletingLastPathComponent().appendingPathComponent("cb-heart-rate")
            var environment = ProcessInfo.processInfo.environment
            environment["RTSTACK_ADAPTER"] = "tcp:127.0.0.1:\(world.hciPort)"
            environment["RTSTACK_STATE_DIR"] = try PackagePaths.temporaryDirectory("cb-example").path
            let child = try PipedChild.start(binary, [], in: PackagePaths.root, environment: environment)
            defer { if child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) } }
            func beats() -> [Int] { child.out.lines.compactMap { $0.hasSuffix(" bpm") ? Int($0.dropLast(4)) : nil } }
            #expect(await eventually(30) { beats().count >= 3 }, "stdout: \(child.out.lines)\nstderr: \(child.err.text)")
            kill(child.process.processIdentifier, SIGINT)
            #expect(await eventually(15) { !child.process.isRunning })
            #expect(child.process.terminationStatus == 0)
            // Each printed beat is the bpm of a Heart Rate Measurement the world sent.
            let sent = Set(world.notifications(device: "Heart 1", uuid: "2A37").map { $0.value.count > 1 ? Int($0.value[1]) : -1 })
            #expect(!beats().isEmpty && beats().allSatisfy(sent.contains), "printed \(beats()), sent \(sent.sorted())")
            #expect(child.out.lines.contains { $0.hasPrefix("Found Heart 1") })
        }
    
        @Test("Descriptors and their values, notifications on and off (the CCCD as the peer saw it), a paced burst of Write Without Response")
        func characteristicDetails() async throws {
            let world = try await WorldProcess.start(["--heart", "1", "--speed", "0", "--environment", "0", "--distractors", "0", "--rate", "20"])
            defer { world.stop() }
            let app = DetailsApp(service: CBUUID(string: "180D"), options: try Self.options(world, "details"))
            #expect(await eventually(40) { app.descriptorsDiscovered })
            let p = try #require(app.peripheral)
            let hrm = try #require(app.characteristics[CBUUID(string: "2A37")])
            let cccd = try #require(app.cccd, "descriptors: \(String(describing: hrm.descriptors))")
            p.readValue(for: cccd)
            #expect(await eventually(30) { app.descriptorValues.count == 1 })
            #expect((app.descriptorValues[0] as? NSNumber)?.intValue == 0)

            p.setNotifyValue(true, for: hrm)
            #expect(await eventually(30) { app.notificationStates == [true] && app.values >= 3 })
            p.readValue(for: cccd)
            #expect(await eventually(30) { app.descriptorValues.count == 2 })
            #expect((app.descriptorValues[1] as? NSNumber)?.intValue == 1)
            p.setNotifyValue(false, for: hrm)
            #expect(await eventually(30) { app.notificationStates == [true, false] })
            #expect(!hrm.isNotifying)
            let cccdWrites = world.events("att_write").filter { $0["uuid"]?.string == "2902" }.compactMap { $0["value"]?.string }
            #expect(cccdWrites == ["0100", "0000"], "the CCCD is written back before didUpdateNotificationStateFor")
            let stopped = app.values
            try await Task.sleep(for: .milliseconds(500))   // 10 more notification periods
            #expect(app.values <= stopped + 1, "values after notifications were turned off")

            // A burst larger than the window: the window closes, and reopens with peripheralIsReady.
            let control = try #require(app.characteristics[CBUUID(string: "2A39")])
            var closed = false
            for _ in 0..<40 {
                p.writeValue(Data([0x01]), for: control, type: .withoutResponse)
                if !p.canSendWriteWithoutResponse { closed = true }
            }
            #expect(closed)
            #expect(await eventually(30) { app.readyCalls >= 1 && p.canSendWriteWithoutResponse })
            #expect(p.maximumWriteValueLength(for: .withoutResponse) > 20 && p.maximumWriteValueLength(for: .withResponse) == 512)
            #expect(await eventually(30) { world.events("att_write").filter { $0["opcode"]?.string == "0x52" }.count == 40 })
        }
    }
}
