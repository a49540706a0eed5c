import ESPHomeAPI
import Foundation
import Testing
import TestSupport

/// The protocol layer against Home Assistant's own client, aioesphomeapi (PyPI, pinned in
/// Tests/World/requirements.txt and installed by `scripts/world setup`), run as
/// Tests/World/world/esphome_client.py: plaintext, Noise with the right key, and the refusals a
/// user meets (a wrong key, a client without the key, a keyed client on a plaintext proxy).
@Suite(.serialized, .enabled(if: AioesphomeapiVenv.python != nil, "aioesphomeapi is not installed in .venv-world: run `scripts/world setup`"), .ownThread)
struct AioesphomeapiTests {
    static let root = AioesphomeapiVenv.root
    static let python = AioesphomeapiVenv.python


    static let identity = ProxyIdentity(name: "rtstack-proxy", friendlyName: "rtstack proxy", macAddress: "AA:BB:CC:DD:EE:01",
                                        bluetoothMACAddress: "AA:BB:CC:DD:EE:01",
                                        features: [.passiveScan, .activeConnections, .remoteCaching, .rawAdvertisements, .stateAndMode])
    static let key = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="

    /// Runs the client against a proxy with `serverKey`, the client holding `clientKey`; the
    /// client's JSON lines and the server's close reasons.
    func exchange(serverKey: String?, clientKey: String?, advertisements: Int = 0) throws -> (lines: [[String: Any]], closeReasons: [String]) {
        let server = try LoopbackProxyServer(identity: Self.identity, key: try serverKey.map { try NoisePresharedKey(base64: $0) })
        var arguments = ["-m", "world.esphome_client", "--port", "\(server.port)", "--advertisements", "\(advertisements)"]
        if let clientKey { arguments += ["--key", clientKey] }
        let client = try ChildProcess("/usr/bin/env", ["PYTHONPATH=\(Self.root.appendingPathComponent("Tests/World").path)", Self.python!] + arguments)
        server.serve(timeout: 120, until: { !client.isRunning }) { request, connection in
            switch request {
            case .subscribeConnectionsFree:
                connection.send(.connectionsFree(free: 2, limit: 3, allocated: [0xC0FF_EE00_0001]))
            case .subscribeAdvertisements:
                connection.send(.rawAdvertisements([
                    ProxyRawAdvertisement(address: 0xC0FF_EE00_0002, rssi: -61, addressType: 1, data: [0x02, 0x01, 0x06, 0x03, 0x03, 0x0D, 0x18]),
                    ProxyRawAdvertisement(address: 0xC0FF_EE00_0002, rssi: -61, addressType: 1, data: [0x05, 0x09, 0x48, 0x52, 0x4D, 0x31]),
                ]))
            default:
                break
            }
        }
        client.terminate(signal: SIGKILL)
        let lines = client.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        return (lines, server.closeReasons)
    }

    func check(_ lines: [[String: Any]]) {
        let info = lines.compactMap { $0["device_info"] as? [String: Any] }.first
        #expect(info?["name"] as? String == "rtstack-proxy")
        #expect(info?["bluetooth_mac_address"] as? String == "AA:BB:CC:DD:EE:01")
        #expect(info?["feature_flags"] as? Int == Int(Self.identity.features.rawValue))
        #expect(info?["api_version"] as? [Int] == [1, 12])
        #expect(lines.contains { $0["entities"] as? Int == 0 })
        let free = lines.compactMap { $0["connections_free"] as? [Any] }.first
        #expect(free?[0] as? Int == 2)
        #expect(free?[1] as? Int == 3)
        let advertisements = lines.compactMap { $0["advertisements"] as? [[String: Any]] }.first ?? []
        #expect(advertisements.map { $0["data"] as? String } == ["0201060303 0d18".replacingOccurrences(of: " ", with: ""), "050948524d31"])
        #expect(advertisements.first?["rssi"] as? Int == -61)
        #expect(advertisements.first?["address"] as? Int == 0xC0FF_EE00_0002)
        #expect(lines.contains { $0["done"] as? Bool == true }, "client lines: \(lines)")
    }

    @Test func homeAssistantsClientReadsDeviceInfoSlotsAndAdvertisementsOverPlaintext() throws {
        let (lines, reasons) = try exchange(serverKey: nil, clientKey: nil, advertisements: 2)
        check(lines)
        #expect(reasons == ["the client disconnected"])
    }

    @Test func homeAssistantsClientDoesTheSameOverNoiseWithTheProxysKey() throws {
        let (lines, reasons) = try exchange(serverKey: Self.key, clientKey: Self.key, advertisements: 2)
        check(lines)
        #expect(reasons == ["the client disconnected"])
    }

    @Test func aClientWithAnotherKeyIsToldItsKeyIsWrong() throws {
        let other = "IB8eHRwbGhkYFxYVFBMSERAPDg0MCwoJCAcGBQQDAgE="
        let (lines, reasons) = try exchange(serverKey: Self.key, clientKey: other)
        #expect(lines.first?["error"] as? String == "InvalidEncryptionKeyAPIError", "client lines: \(lines)")
        #expect(reasons.first?.contains("another encryption key") == true)
    }

    @Test func aClientWithoutTheKeyIsToldTheProxyRequiresEncryption() throws {
        let (lines, reasons) = try exchange(serverKey: Self.key, clientKey: nil)
        #expect(lines.first?["error"] as? String == "RequiresEncryptionAPIError", "client lines: \(lines)")
        #expect(reasons.first?.contains("requires encryption") == true)
    }

    @Test func aKeyedClientOnAPlaintextProxyIsToldTheProxyUsesPlaintext() throws {
        let (lines, reasons) = try exchange(serverKey: nil, clientKey: Self.key)
        #expect(lines.first?["error"] as? String == "EncryptionPlaintextAPIError", "client lines: \(lines)")
        #expect(reasons.first?.contains("has no key") == true)
    }
}

/// Where the test world's venv is, and whether it has aioesphomeapi.
enum AioesphomeapiVenv {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let python: String? = {
        let path = root.appendingPathComponent(".venv-world/bin/python").path
        let probe = root.appendingPathComponent(".venv-world/lib").path
        guard FileManager.default.isExecutableFile(atPath: path),
              let versions = try? FileManager.default.contentsOfDirectory(atPath: probe),
              versions.contains(where: { FileManager.default.fileExists(atPath: "\(probe)/\($0)/site-packages/aioesphomeapi") })
        else { return nil }
        return path
    }()
}
