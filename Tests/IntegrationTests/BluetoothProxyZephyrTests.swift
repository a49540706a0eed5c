import Foundation
import Testing

extension ZephyrIntegration {
    /// `rtstack gateway --esphome` as Home Assistant's Bluetooth proxy over Zephyr's link layer,
    /// driven by Home Assistant's own client, aioesphomeapi, through the same scenario as on the
    /// Bumble world (Tests/World/world/esphome_proxy_scenario.py). What the firmware fixes
    /// differs: names only in scan responses, RSSI −35 dBm, Zephyr's handles, a control point
    /// that refuses writes (so the write that succeeds is Battery Level's CCCD), and no world
    /// control to drop a peer — killing a peripheral ends the whole simulation — so the lost peer
    /// is sc_only, which ends the link itself (Authentication Failure) when the central does not
    /// pair. Beside it: two links notifying at once (esphome_proxy_links.py) and Home Assistant's
    /// bleak stack. Skipped, as every Zephyr test, when the world's folder is absent.
    @Suite("Zephyr: Home Assistant's Bluetooth proxy", .enabled(if: ProxyClientVenv.python != nil, ProxyClientVenv.skipReason))
    struct BluetoothProxyZephyr {
        static let heart: UInt64 = 0xE724_1240_4954
        /// Zephyr's hr sample: Heart Rate Measurement, its CCCD, Body Sensor Location, and
        /// Battery Level's CCCD (`rtstack gatt` of hr, ZephyrCLITests).
        static let measurement = 0x1B, measurementCCCD = 0x1C, bodySensorLocation = 0x1E, batteryCCCD = 0x13
        /// What Zephyr's peripherals answer an Exchange MTU Request with.
        static let mtu = 65
        /// HCI Connection Terminated by Local Host: the reason for a disconnection the host asked for.
        static let localHost = 0x16
        /// ATT Write Not Permitted: hr's Heart Rate Control Point answers every write with it.
        static let writeNotPermitted = 0x03
        /// HCI Authentication Failure: sc_only's reason for ending a link that is not paired.
        static let authenticationFailure = 0x05

        func run(key: String?) async throws {
            try await ZephyrIntegration.withWorld(["hr", "esp", "sc_only"], label: "proxy") { world, dir in
                var gateway = world.adapter + ["--esphome-name", "rtstack-zephyr"]
                if let key { gateway += ["--esphome-key", key] }
                let named = world.devices.map { Self.hex($0.address) }.joined(separator: ",")
                let r = try await ProxyClientRun.start(gateway, stateDirectory: dir, clientKey: key, limit: 240) { port in
                    ["-m", "world.esphome_proxy_scenario", "--port", "\(port)", "--device", Self.hex(ZephyrIntegration.heartAddress),
                     "--named", named, "--listen", "1", "--write-cccd-of", "2a19", "--refused", "2a39",
                     "--self-ending", Self.hex(ZephyrIntegration.secureAddress), "--switch-modes", "2", "--patience", "4"]
                }
                check(r, world)
                #expect(await r.gateway.terminate() == 0, "\(r.gateway.transcript)")
            }
        }

        func check(_ r: ProxyClientRun, _ world: BsimWorld) {
            r.checkScenario(name: "rtstack-zephyr", heart: Self.heart)

            // Raw advertisements: each device with BabbleSim's RSSI, and its name from the scan response.
            #expect(world.devices.map(\.name) == ["hr", "esp", "sc_only"])
            let heard = r.fact("advertisements")
            for d in world.devices {
                let entry = heard?[Self.hex(d.address)]
                #expect(entry != nil, "\(d.name) (\(d.address)) heard; heard: \(heard?.description ?? "nothing")")
                #expect(entry?["rssi"]?.int == -35 && entry?["rssi_min"]?.int == -35, "\(d.name): BabbleSim's ideal channel, −35 dBm")
                #expect(entry?["address_type"]?.int == 1, "\(d.name): random")
                #expect(entry?["names"]?.array?.map(\.string) == [d.localName], "\(d.name) named \(d.localName)")
            }

            // Passive scanning: no scan requests, so no scan responses and (on this firmware) no
            // names; active again: the names are back (a controller takes new scan parameters only
            // while scanning is off, Core Spec Vol 4, Part E, §7.8.10).
            let modes = r.fact("modes")
            #expect((modes?["passive"]?["reports"]?.int ?? 0) > 0 && modes?["passive"]?["named"]?.int == 0, "passive: \(modes?.description ?? "none")")
            #expect((modes?["active"]?["named"]?.int ?? 0) > 0, "active: \(modes?.description ?? "none")")
            #expect(r.fact("scanner_states_after_modes")?.array?.map(\.description) == ["[2,1]", "[2,0]", "[2,1]"], "running: active, passive, active")

            // Scanning went on beside hr's link (Zephyr refuses scan commands only while initiating).
            let whileConnected = r.fact("heard_while_connected")
            for d in world.devices where d.name != "hr" {
                #expect((whileConnected?[Self.hex(d.address)]?.int ?? 0) > 0, "\(d.name) heard while hr was connected: \(whileConnected?.description ?? "none")")
            }

            // Zephyr's ATT MTU (its Exchange MTU Response) on both links; the controller's reason
            // for the disconnection the client asked for: Connection Terminated by Local Host.
            #expect(r.all("connected").map { $0["mtu"]?.int } == [Self.mtu, Self.mtu], "\(r.all("connected"))")
            #expect(r.fact("disconnected")?.array?.map(\.description) == ["false", "0", "\(Self.localHost)"])

            // Zephyr's handles; the bpm of each notification 90 + the world's seconds, one more each time.
            #expect(r.fact("read")?["handle"]?.int == Self.bodySensorLocation)
            let notifications = r.fact("notifications")
            #expect(notifications?["handle"]?.int == Self.measurement)
            #expect(notifications?["cccd"]?.int == Self.measurementCCCD)
            let bpm = (notifications?["values"]?.array ?? []).compactMap { $0.string.flatMap(Self.bpm) }
            #expect(bpm.count == 3 && bpm.allSatisfy { (90...159).contains($0) }, "\(bpm)")
            #expect(zip(bpm, bpm.dropFirst()).allSatisfy { $1 == $0 + 1 || $1 == 90 }, "one more each second: \(bpm)")
            if let first = bpm.first {
                #expect(Double(first - 90) <= seconds(since: world.launchedAt) + 1, "no older than the world: \(first) bpm")
            }

            // A write that the firmware takes, and one it refuses with its ATT error.
            #expect(r.fact("wrote")?["handle"]?.int == Self.batteryCCCD, "Battery Level's CCCD took 0100")
            #expect(r.fact("refused")?["error"]?.int == Self.writeNotPermitted, "Heart Rate Control Point: Write Not Permitted")

            // The peer that ends the link: told with the HCI reason, its slot back.
            #expect(r.fact("lost")?.array?.map(\.description) == ["false", "0", "\(Self.authenticationFailure)"],
                    "sc_only ends the unpaired link: Authentication Failure; states: \(r.fact("lost_states")?.description ?? "none")")
        }

        /// `E7:24:12:40:49:54/random` as the API numbers it: `E72412404954`.
        static func hex(_ address: String) -> String {
            String(address.prefix { $0 != "/" }.filter { $0 != ":" })
        }

        /// A little-endian sint16 (hex of the value).
        static func sint16(_ hex: String) -> Int? {
            guard hex.count == 4, let lo = UInt8(hex.prefix(2), radix: 16), let hi = UInt8(hex.suffix(2), radix: 16) else { return nil }
            return Int(Int16(bitPattern: UInt16(hi) << 8 | UInt16(lo)))
        }

        /// A Heart Rate Measurement's bpm (hex of the value; 8-bit when flag bit 0 is clear).
        static func bpm(_ hex: String) -> Int? {
            let bytes = stride(from: 0, to: hex.count - 1, by: 2).compactMap {
                UInt8(hex.dropFirst($0).prefix(2), radix: 16)
            }
            guard bytes.count >= 2 else { return nil }
            return bytes[0] & 1 == 0 ? Int(bytes[1]) : bytes.count >= 3 ? Int(bytes[1]) | Int(bytes[2]) << 8 : nil
        }

        @Test("Plaintext: device info, advertisements with names and −35 dBm, passive and active again, slots, connect v3 without and with cache, services, read, notify, writes, disconnect, an absent device given up, a peer that ends the link",
              .timeLimit(.minutes(10)))
        func plaintext() async throws {
            try await run(key: nil)
        }

        @Test("Noise-encrypted (--esphome-key): the same scenario", .timeLimit(.minutes(10)))
        func encrypted() async throws {
            try await run(key: BluetoothProxyWorldTests.key)
        }

        @Test("Two links at once: hr and esp connected together, both notifying on handle 0x1B; each value reaches the client under its own address",
              .timeLimit(.minutes(10)))
        func twoLinks() async throws {
            try await ZephyrIntegration.withWorld(["hr", "esp"], label: "proxy-links") { world, dir in
                let (hr, esp) = (Self.hex(ZephyrIntegration.heartAddress), Self.hex(ZephyrIntegration.environmentAddress))
                let r = try await ProxyClientRun.start(world.adapter + ["--esphome-name", "rtstack-zephyr"], stateDirectory: dir, clientKey: nil, limit: 180) { port in
                    ["-m", "world.esphome_proxy_links", "--port", "\(port)", "--notify", "\(hr):2a37", "--notify", "\(esp):2a6e",
                     "--count", "2", "--patience", "4"]
                }
                let links = r.fact("links")
                #expect(links?[hr]?["handle"]?.int == Self.measurement && links?[esp]?["handle"]?.int == Self.measurement,
                        "Heart Rate Measurement and esp's first Temperature share the handle: \(r.transcript)")
                let bpm = (links?[hr]?["values"]?.array ?? []).compactMap { $0.string.flatMap(Self.bpm) }
                #expect(bpm.count == 2 && bpm.allSatisfy { (90...159).contains($0) } && (bpm[1] == bpm[0] + 1 || bpm[1] == 90), "hr: \(bpm)")
                // esp's sample: 12.00 °C + 0.05 °C each 5-second update, ticking once a CCC is on (sint16, 0.01 °C).
                let celsius = (links?[esp]?["values"]?.array ?? []).compactMap { $0.string.flatMap(Self.sint16) }
                #expect(celsius == [1205, 1210], "esp: \(celsius)")
                #expect(r.fact("connections_free_held")?.array?.first?.int == 3, "two slots held")
                #expect(r.fact("disconnected")?[hr]?.array?.first?.bool == false && r.fact("disconnected")?[esp]?.array?.first?.bool == false)
                #expect(r.fact("connections_free_end")?.array?.map(\.description) == ["5", "5", "[]"])
                #expect(r.facts.last?["done"]?.bool == true, "\(r.transcript)")
                #expect(await r.gateway.terminate() == 0)
            }
        }

        @Test("Home Assistant's Bluetooth stack (bleak, bleak-esphome, habluetooth) finds hr through the proxy's scanner, connects, reads and is notified",
              .timeLimit(.minutes(10)), .enabled(if: ProxyClientVenv.has("bleak_esphome"), "bleak-esphome is not in .venv-world: run `scripts/world setup`"))
        func bleak() async throws {
            try await ZephyrIntegration.withWorld(["hr", "esp"], label: "proxy-bleak") { world, dir in
                let r = try await ProxyClientRun.start(world.adapter + ["--esphome-name", "rtstack-zephyr"], stateDirectory: dir, clientKey: nil, limit: 120) { port in
                    ["-m", "world.bleak_client", "--port", "\(port)", "--address", String(ZephyrIntegration.heartAddress.prefix(17)),
                     "--read", "00002a38-0000-1000-8000-00805f9b34fb", "--notify", "00002a37-0000-1000-8000-00805f9b34fb"]
                }
                #expect(r.fact("connected")?.bool == true, "\(r.transcript)")
                #expect(r.fact("read")?.string == "01", "Body Sensor Location through a BleakClient")
                let bpm = r.fact("notified")?.string.flatMap(Self.bpm)
                #expect(bpm.map { (90...159).contains($0) } == true, "a heart-rate measurement: \(bpm.map(String.init) ?? "none")")
                #expect(r.facts.last?["done"]?.bool == true, "\(r.transcript)")
                #expect(await r.gateway.terminate() == 0)
            }
        }
    }
}
