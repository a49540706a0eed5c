import ESPHomeAPI
import Foundation
import Testing
import TestSupport

/// The protocol layer under Home Assistant's Bluetooth stack as an application meets it: bleak's
/// `BleakClient` through bleak-esphome and habluetooth (PyPI, pinned in Tests/World/requirements.txt),
/// run as Tests/World/world/bleak_client.py with no BlueZ and no D-Bus. The proxy here is a
/// scripted one (a heart rate sensor with a battery level); the gateway's own proxy against the
/// Bumble world is tested by the integration suite.
@Suite(.serialized, .enabled(if: BleakVenv.python != nil, "bleak-esphome and habluetooth are not installed in .venv-world: run `scripts/world setup`"), .ownThread)
struct BleakESPHomeTests {
    static let identity = ProxyIdentity(name: "rtstack-proxy", friendlyName: "rtstack proxy", macAddress: "AA:BB:CC:DD:EE:01",
                                        bluetoothMACAddress: "AA:BB:CC:DD:EE:01",
                                        features: [.passiveScan, .activeConnections, .remoteCaching, .rawAdvertisements])
    static let sensor: UInt64 = 0xC0FF_EE00_0002
    static let services = [
        ProxyGATTService(uuid: ProxyUUID(short: 0x180D), handle: 1, characteristics: [
            ProxyGATTCharacteristic(uuid: ProxyUUID(short: 0x2A37), handle: 3, properties: 0x10,
                                    descriptors: [ProxyGATTDescriptor(uuid: ProxyUUID(short: 0x2902), handle: 4)]),
        ]),
        ProxyGATTService(uuid: ProxyUUID(short: 0x180F), handle: 5, characteristics: [
            ProxyGATTCharacteristic(uuid: ProxyUUID(short: 0x2A19), handle: 7, properties: 0x02, descriptors: []),
        ]),
    ]

    /// What a proxy with one heart rate sensor in range answers.
    static func answer(_ request: ClientMessage, _ connection: inout APIServerConnection, log: inout [String]) {
        log.append("\(request)")
        switch request {
        case .subscribeConnectionsFree:
            connection.send(.connectionsFree(free: 3, limit: 3, allocated: []))
        case .subscribeAdvertisements:
            connection.send(.rawAdvertisements([
                ProxyRawAdvertisement(address: sensor, rssi: -58, addressType: 1,
                                      data: [0x02, 0x01, 0x06, 0x03, 0x03, 0x0D, 0x18, 0x05, 0x09, 0x48, 0x52, 0x4D, 0x31]),
            ]))
        case let .deviceRequest(address, kind, _):
            let connected = kind == .connect || kind == .connectV3WithCache || kind == .connectV3WithoutCache
            connection.send(.connection(address: address, connected: connected, mtu: connected ? 247 : 0, error: 0))
        case let .getServices(address):
            connection.send(.services(address: address, services, shortUUIDs: connection.acceptsShortUUIDs))
            connection.send(.servicesDone(address: address))
        case let .read(address, handle):
            connection.send(.readResponse(address: address, handle: handle, data: [0x5A]))
        case let .writeDescriptor(address, handle, _):
            connection.send(.writeResponse(address: address, handle: handle))
        case let .notify(address, handle, enable):
            connection.send(.notifyResponse(address: address, handle: handle))
            if enable { connection.send(.notifyData(address: address, handle: handle, data: [0x06, 0x40])) }
        default:
            break
        }
    }

    @Test func aBleakClientConnectsReadsAndIsNotifiedThroughTheProxyWithoutBlueZ() throws {
        let server = try LoopbackProxyServer(identity: Self.identity, key: nil)
        let root = AioesphomeapiVenv.root
        let client = try ChildProcess("/usr/bin/env", [
            "PYTHONPATH=\(root.appendingPathComponent("Tests/World").path)", BleakVenv.python!, "-m", "world.bleak_client",
            "--port", "\(server.port)", "--address", "C0:FF:EE:00:00:02",
            "--read", "00002a19-0000-1000-8000-00805f9b34fb", "--notify", "00002a37-0000-1000-8000-00805f9b34fb",
        ])
        var requests: [String] = []
        server.serve(timeout: 120, until: { !client.isRunning }) { request, connection in
            Self.answer(request, &connection, log: &requests)
        }
        client.terminate(signal: SIGKILL)
        let lines = client.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        let context = "client lines: \(client.lines); requests: \(requests)"
        #expect(lines.contains { $0["manager"] as? String == "set up" }, "\(context)")
        #expect(lines.contains { $0["seen"] as? String == "C0:FF:EE:00:00:02" }, "\(context)")
        #expect(lines.contains { $0["connected"] as? Bool == true }, "\(context)")
        #expect(lines.contains { $0["read"] as? String == "5a" }, "\(context)")
        #expect(lines.contains { $0["notified"] as? String == "0640" }, "\(context)")
        #expect(lines.contains { $0["done"] as? Bool == true }, "\(context)")
        // With remote caching the client writes the CCCD itself, beside its notify request.
        #expect(requests.contains { $0.hasPrefix("writeDescriptor") && $0.contains("handle: 4") }, "\(context)")
        #expect(requests.contains { $0.hasPrefix("notify") && $0.contains("enable: true") }, "\(context)")
    }
}

/// The world's Python when it holds bleak-esphome and habluetooth (beside aioesphomeapi).
enum BleakVenv {
    static let python: String? = {
        let root = AioesphomeapiVenv.root
        let path = root.appendingPathComponent(".venv-world/bin/python").path
        let probe = root.appendingPathComponent(".venv-world/lib").path
        guard FileManager.default.isExecutableFile(atPath: path),
              let versions = try? FileManager.default.contentsOfDirectory(atPath: probe),
              versions.contains(where: { version in
                  ["bleak_esphome", "habluetooth", "aioesphomeapi"].allSatisfy {
                      FileManager.default.fileExists(atPath: "\(probe)/\(version)/site-packages/\($0)")
                  }
              })
        else { return nil }
        return path
    }()
}
