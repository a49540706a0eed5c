import Testing
import Foundation
@testable import RTStackCLI
import Capture
import Dissector
import Wire
import HostCore
import Runtime
import TestSupport

/// `rtstack monitor` in-process. The kernel here has no Bluetooth, so the frames come from a
/// Linux monitor capture (`--from`) through the same path live frames take; the live socket
/// is exercised by the VM test (Tests/VM/monitor-tests.sh).
@Suite(.ownThread) struct MonitorCommandTests {
    func run(_ args: [String], command: String = "monitor") async throws -> CLIRun {
        try await CLIRun.run([command] + args)
    }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
        }
    }

    @Test func everyFrameKindIsShownWithItsAdapter() async throws {
        let path = try MonitorScenario.writeCapture()
        defer { unlink(path) }
        let r = try await run(["--from", path, "--json", "--no-gatt-cache"])
        #expect(r.code == .success, "\(r.err)")
        let lines = try jsonLines(r.out)
        let notes = lines.filter { $0["type"] as? String == "monitor" }
        #expect(notes.map { $0["name"] as? String ?? "" } == [
            "System Note", "New Index", "Open Index", "Index Info", "New Index", "User Logging",
            "MGMT Open", "MGMT Command", "MGMT Event", "MGMT Close", "Close Index", "Delete Index",
        ])
        #expect(notes[0]["summary"] as? String == "Bluetooth subsystem version 2.22" && notes[0]["adapter"] == nil)
        #expect(notes[1]["summary"] as? String == "Primary, Virtual, 00:AA:01:00:00:01, hci0" && notes[1]["adapter"] as? Int == 0)
        #expect(notes[5]["summary"] as? String == "bluetoothd: Starting SDP server")
        #expect(notes[6]["summary"] as? String == "bluetoothd, version 1.22, privileged")
        #expect(notes[7]["summary"] as? String == "Set Powered (0x0005) from bluetoothd")
        #expect(notes[8]["summary"] as? String == "Command Complete (0x0001) to bluetoothd: Set Powered, Success")
        #expect(notes[11]["adapter"] as? Int == 1)
        // The same handle on two adapters, kept apart: each link has its own peer.
        let notifications = lines.filter { ($0["att"] as? [String: Any])?["opcode"] as? Int == 0x1B }
        #expect(notifications.count == 6)
        #expect(notifications.filter { $0["adapter"] as? Int == 0 }.count == 3)
        let summary = try #require(lines.last)
        let links = try #require(summary["links"] as? [[String: Any]])
        #expect(links.map { $0["peer"] as? String } == ["\(MonitorScenario.heartPeer)/random", "\(MonitorScenario.speedPeer)/random"])
        #expect(links.map { $0["adapter"] as? Int } == [0, 1])
        #expect(summary["monitor_records"] as? Int == 12)
        // Indexes count every frame, as tshark numbers them.
        #expect(lines.dropLast().compactMap { $0["index"] as? Int } == Array(1...(lines.count - 1)))
    }

    @Test func peerAndIndexFiltersUseTheConnectionEvents() async throws {
        let path = try MonitorScenario.writeCapture()
        defer { unlink(path) }
        // Handle 0x0040 is the heart on hci0 and the speed sensor on hci1: the peer filter
        // goes by the connection the handle belongs to on its adapter.
        let heart = try await run(["--from", path, "--json", "--no-summary", "--no-gatt-cache", "--peer", MonitorScenario.heartPeer])
        let heartLines = try jsonLines(heart.out)
        #expect(heartLines.count == 4, "\(heart.out)")   // connection complete + 3 notifications
        #expect(heartLines.allSatisfy { $0["adapter"] as? Int == 0 })
        let beacon = try await run(["--from", path, "--json", "--no-summary", "--no-gatt-cache", "--peer", MonitorScenario.advertiser])
        #expect(try jsonLines(beacon.out).count == 3)
        let hci1 = try await run(["--from", path, "--json", "--no-summary", "--no-gatt-cache", "--index", "hci1", "--filter", "acl"])
        let hci1Lines = try jsonLines(hci1.out)
        #expect(hci1Lines.count == 3 && hci1Lines.allSatisfy { $0["adapter"] as? Int == 1 })
        let bad = try await run(["--from", path, "--index", "x"])
        #expect(bad.code == .usage && bad.err.contains("--index x"))
    }

    @Test func advertisingSummaryFoldsTheReports() async throws {
        let path = try MonitorScenario.writeCapture()
        defer { unlink(path) }
        let r = try await run(["--from", path, "--adv-summary", "--brief", "--no-gatt-cache"])
        #expect(!r.out.contains("LE Advertising Report"))
        #expect(r.out.contains("Advertisers: 1 devices, 3 reports"), "\(r.out)")
        #expect(r.out.contains("hci1 \(MonitorScenario.advertiser)/random  3 reports  RSSI -70…-68 dBm  \"Beacon\""))
    }

    @Test func writesBtsnoop2001AndPcap254ThatReadBack() async throws {
        let path = try MonitorScenario.writeCapture()
        defer { unlink(path) }
        let dir = FileManager.default.temporaryDirectory.path
        let copy = dir + "/rtstack-monitor-copy-\(UUID().uuidString).btsnoop"
        let pcap = dir + "/rtstack-monitor-copy-\(UUID().uuidString).pcap"
        defer { unlink(copy); unlink(pcap) }
        let a = try await run(["--from", path, "--write", copy, "--no-summary", "--brief", "--no-gatt-cache"])
        let b = try await run(["--from", path, "--write", pcap, "--no-summary", "--brief", "--no-gatt-cache"])
        #expect(a.code == .success && b.code == .success)
        // Byte for byte the frames that went in.
        var original = try CaptureFile.open(path: path)
        var written = try CaptureFile.open(path: copy)
        #expect(try written.readAll() == (try original.readAll()))
        #expect(written.recordsSkipped == 12)
        // The three captures decode to the same lines.
        let decoded = try await run([path, "--brief", "--no-gatt-cache"], command: "decode")
        let fromCopy = try await run([copy, "--brief", "--no-gatt-cache"], command: "decode")
        let fromPcap = try await run([pcap, "--brief", "--no-gatt-cache"], command: "decode")
        func body(_ s: String) -> [Substring] { s.split(separator: "\n").filter { !$0.hasPrefix("#") } }
        #expect(body(decoded.out) == body(fromCopy.out))
        #expect(body(decoded.out) == body(fromPcap.out))
        // tshark reads the pcap as Linux monitor frames: every frame, the six notifications.
        if SharedCaptures.tsharkPath != nil {
            #expect(try SharedCaptures.tsharkCount(pcap) == MonitorScenario.frames().count)
            #expect(try SharedCaptures.tsharkCount(pcap, filter: "btatt.opcode==0x1b") == 6)
            #expect(try SharedCaptures.tsharkCount(pcap, filter: "hci_mon.opcode==0") == 2)   // New Index
        } else {
            Issue.record("tshark is not installed; scripts/setup installs it")
        }
    }

    @Test func gattCacheNamesHandlesWhenTheCaptureLacksDiscovery() async throws {
        let path = try MonitorScenario.writeCapture()
        defer { unlink(path) }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let peer = DeviceAddress(BDAddress(string: MonitorScenario.heartPeer)!, type: .randomDevice)
        let db = GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0x180D), startHandle: 0x10, endHandle: 0x14, characteristics: [
            GATTCharacteristic(uuid: .heartRateMeasurement, declarationHandle: 0x11, valueHandle: 0x12, properties: 0x10,
                               endHandle: 0x13, descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: 0x13)]),
        ])])
        try FileGATTCache(directory: StateDirectory(path: state.path)).store(db, for: peer)
        let r = try await run(["--from", path, "--gatt-cache", state.path, "--index", "0", "--filter", "att=notification"])
        #expect(r.out.contains("Heart Rate Measurement: 72 bpm (label from the GATT cache)"), "\(r.out)")
        let j = try await run(["--from", path, "--json", "--no-summary", "--gatt-cache", state.path, "--index", "0", "--filter", "att=notification"])
        let att = try #require(try jsonLines(j.out).first?["att"] as? [String: Any])
        #expect(att["uuid"] as? String == "2A37" && att["uuid_source"] as? String == "gatt-cache" && att["decoded"] as? String == "72 bpm")
        // The speed sensor on hci1 has no cache entry: no label.
        let other = try await run(["--from", path, "--gatt-cache", state.path, "--index", "1", "--filter", "att=notification"])
        #expect(!other.out.contains("GATT cache"))
        // decode reads the same cache.
        let decoded = try await run([path, "--gatt-cache", state.path, "--filter", "att=notification", "--filter", "index=0"], command: "decode")
        #expect(decoded.out.contains("Heart Rate Measurement: 74 bpm (label from the GATT cache)"))
        let missing = try await run(["--from", path, "--gatt-cache", "/nonexistent/dir"])
        #expect(missing.code == .usage && missing.err.contains("not a readable directory"))
    }

    @Test(.enabled(if: HCIAdapterCommandTests.kernelLacksBluetooth, "this kernel has Bluetooth (scripts/vm-test covers it)"))
    func liveMonitorWithoutKernelBluetoothExitsThree() async throws {
        let r = try await run(["--duration", "1"])
        #expect(r.code == .adapter)
        #expect(r.err.contains("EAFNOSUPPORT") && r.err.contains("modprobe bluetooth"))
        #expect(r.out.isEmpty)
    }

    @Test func monitorChannelPermissionErrorNamesCapNetRaw() {
        let text = AdapterAdvice.text(for: HCISocketError(index: nil, operation: .monitor, errno: EPERM))
        #expect(text.hasPrefix("Bluetooth: permission denied"), "\(text)")
        #expect(text.contains("the HCI monitor channel needs CAP_NET_RAW"))
        #expect(text.contains("sudo setcap cap_net_raw+ep $(which rtstack)"))
        #expect(!text.contains("user channel needs"))
    }
}
