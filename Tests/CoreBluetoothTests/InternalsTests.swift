@testable import CoreBluetooth
import Foundation
import HostCore
import Runtime
import Testing
import Wire

@Suite("CoreBluetooth's internals")
struct InternalsTests {
    static let heart = DeviceAddress(BDAddress(string: "C1:00:00:00:00:01")!, type: .randomDevice)

    @Test("A peripheral's identifier comes from its address alone: the same in every run, different per address and type")
    func identifierIsStable() {
        let a = PeripheralIdentifier.uuid(for: Self.heart)
        // Fixed: a different value means every app's stored identifiers would change.
        #expect(a == PeripheralIdentifier.uuid(for: DeviceAddress(BDAddress(string: "C1:00:00:00:00:01")!, type: .randomDevice)))
        #expect(a.uuidString == PeripheralIdentifier.uuid(for: Self.heart).uuidString)
        #expect(a.uuidString.dropFirst(14).first == "8", "version 8: \(a)")
        #expect(a != PeripheralIdentifier.uuid(for: DeviceAddress(BDAddress(string: "C1:00:00:00:00:02")!, type: .randomDevice)))
        #expect(a != PeripheralIdentifier.uuid(for: DeviceAddress(BDAddress(string: "C1:00:00:00:00:01")!, type: .publicDevice)))
        #expect(PeripheralIdentifier.uuid(for: DeviceAddress(BDAddress(string: "C1:00:00:00:00:01")!, type: .randomIdentity)) == a,
                "an identity address resolved from an RPA names the same peripheral")
    }

    @Test("The adapter comes from the options first, then the environment, then hci0; bad values are named")
    func adapterSettings() throws {
        let env = ["RTSTACK_ADAPTER": "tcp:127.0.0.1:9000", "RTSTACK_STATE_DIR": "/tmp/x", "RTSTACK_PASSKEY": "123456"]
        let fromEnv = try AdapterSettings.resolve(options: [:], environment: env).get()
        #expect(fromEnv.adapter == .tcp(host: "127.0.0.1", port: 9000) && fromEnv.stateDirectory == "/tmp/x" && fromEnv.passkey == 123456)
        let fromOptions = try AdapterSettings.resolve(options: ["RTSTACK_ADAPTER": "hci1", "RTSTACK_BACKEND": "kernel"], environment: env).get()
        #expect(fromOptions.adapter == .hciSocket(index: 1) && fromOptions.backend == .kernel)
        #expect(try AdapterSettings.resolve(options: [:], environment: [:]).get().adapter == .hciSocket(index: 0))
        for (bad, named) in [(["RTSTACK_ADAPTER": "bluetooth"], "RTSTACK_ADAPTER=bluetooth"),
                             (["RTSTACK_BACKEND": "bluez"], "RTSTACK_BACKEND=bluez"),
                             (["RTSTACK_ADAPTER": "tcp:h:1", "RTSTACK_BACKEND": "kernel"], "hciN"),
                             (["RTSTACK_PASSKEY": "12345678"], "six digits")] {
            guard case .failure(let e) = AdapterSettings.resolve(options: bad, environment: [:]) else {
                Issue.record("\(bad) was accepted")
                continue
            }
            #expect(e.message.contains(named), "\(e.message)")
        }
    }

    static func report(_ data: [UInt8], scanResponse: Bool = false, scannable: Bool = true, rssi: Int8 = -50) -> Advertisement {
        Advertisement(AdvertisementReport(address: heart, rssi: rssi, connectable: !scanResponse, scannable: scannable,
                                          isScanResponse: scanResponse, data: data[...]))
    }

    static let heartAdvertising: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0x0D, 0x18]
    static let nameResponse: [UInt8] = [0x08, 0x09] + Array("Heart 1".utf8)

    @Test("One discovery per peripheral per scan, with the scan response's name merged in; every report with AllowDuplicates")
    func coalescing() {
        var c = DiscoveryCoalescer(services: [], allowDuplicates: false)
        #expect(c.take(Self.report(Self.heartAdvertising), now: 0) == nil, "waits for the scan response")
        guard let first = c.take(Self.report(Self.nameResponse, scanResponse: true), now: 1_000) else {
            Issue.record("the scan response did not complete the discovery")
            return
        }
        #expect(first.advertisement.localName == "Heart 1" && first.advertisement.serviceUUIDs == [BluetoothUUID(0x180D)])
        #expect(first.advertisement.isConnectable)
        for t in 2..<10 { #expect(c.take(Self.report(Self.heartAdvertising), now: UInt64(t) * 1_000_000_000) == nil) }

        var d = DiscoveryCoalescer(services: [], allowDuplicates: true)
        _ = d.take(Self.report(Self.heartAdvertising), now: 0)
        _ = d.take(Self.report(Self.nameResponse, scanResponse: true), now: 1)
        guard let again = d.take(Self.report(Self.heartAdvertising, rssi: -60), now: 2) else {
            Issue.record("a duplicate was not reported with AllowDuplicates")
            return
        }
        #expect(again.rssi == -60 && again.advertisement.localName == "Heart 1")
    }

    @Test("A service filter lets only advertisers of the service through; a peer that never answers a scan request is reported after a second")
    func filterAndNoResponse() {
        var c = DiscoveryCoalescer(services: [BluetoothUUID(0x1814)], allowDuplicates: false)
        _ = c.take(Self.report(Self.heartAdvertising), now: 0)
        #expect(c.take(Self.report(Self.nameResponse, scanResponse: true), now: 1) == nil)

        var silent = DiscoveryCoalescer(services: [], allowDuplicates: false)
        #expect(silent.take(Self.report(Self.heartAdvertising), now: 0) == nil)
        #expect(silent.take(Self.report(Self.heartAdvertising), now: 500_000_000) == nil)
        #expect(silent.take(Self.report(Self.heartAdvertising), now: 1_000_000_000)?.advertisement.localName == nil)
        var beacon = DiscoveryCoalescer(services: [], allowDuplicates: false)
        #expect(beacon.take(Self.report(Self.heartAdvertising, scannable: false), now: 0) != nil, "not scannable: at once")
    }

    @Test("advertisementData has Apple's keys and types")
    func advertisementDictionary() {
        let a = AdvertisementSnapshot(advertising: Self.heartAdvertising + [0x05, 0xFF, 0x59, 0x00, 0xAB, 0xCD, 0x02, 0x0A, 0xF8],
                                      scanResponse: Self.nameResponse, connectable: true)
        let d = a.dictionary
        #expect(d[CBAdvertisementDataLocalNameKey] as? String == "Heart 1")
        #expect((d[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID]) == [CBUUID(string: "180D")])
        #expect(d[CBAdvertisementDataManufacturerDataKey] as? Data == Data([0x59, 0x00, 0xAB, 0xCD]))
        #expect((d[CBAdvertisementDataTxPowerLevelKey] as? NSNumber)?.intValue == -8)
        #expect((d[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue == true)
    }

    @Test("A link lost to the supervision timeout is CBError.connectionTimeout; every other end is peripheralDisconnected; ATT errors keep their code")
    func errorTranslation() {
        #expect(ErrorTranslation.disconnection(HCIStatus(rawValue: 0x08), text: "").code == .connectionTimeout)
        #expect(ErrorTranslation.disconnection(HCIStatus(rawValue: 0x13), text: "").code == .peripheralDisconnected)
        #expect(ErrorTranslation.disconnection(nil, text: "").code == .peripheralDisconnected)
        let att = ErrorTranslation.delegateError(CentralError.host(.att(error: 0x0D, request: 0x12, handle: 0x20)))
        #expect((att as? CBATTError)?.code == .invalidAttributeValueLength)
        let app = ErrorTranslation.delegateError(CentralError.host(.att(error: 0x80, request: 0x12, handle: 0x20))) as? CBATTError
        #expect(app?.code == .unlikelyError && app?.attErrorCode == 0x80 && (app.map { $0 as NSError })?.code == 0x80)
        #expect((ErrorTranslation.delegateError(CentralError.host(.disconnected(HCIStatus(rawValue: 0x08)))) as? CBError)?.code == .connectionTimeout)
    }

    @Test("Opening failures map to the states an app checks: no adapter unsupported, no permission unauthorized")
    func openFailureStates() {
        func state(_ e: TransportError) -> CBManagerState { ErrorTranslation.state(after: CentralError.unavailable(.transport(e))) }
        #expect(state(.connectionRefused(endpoint: "127.0.0.1:1")) == .unsupported)
        #expect(state(.openFailed(path: "/dev/ttyACM0", errno: ENOENT)) == .unsupported)
        #expect(state(.openFailed(path: "/dev/ttyACM0", errno: EACCES)) == .unauthorized)
        #expect(state(.hciSocket(HCISocketError(index: 0, operation: .bind, errno: EPERM))) == .unauthorized)
        #expect(state(.hciSocket(HCISocketError(index: 0, operation: .socket, errno: EAFNOSUPPORT))) == .unsupported)
        #expect(state(.hciSocket(HCISocketError(index: 0, operation: .bind, errno: EBUSY))) == .poweredOff)
    }
}
