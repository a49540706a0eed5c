import Testing
import Wire
@testable import HostCore

@Suite struct GATTDiscoveryTests {
    private func discovered(_ h: GATTHarness, _ id: OperationID) -> GATTDatabase? {
        if case let .success(.database(db))? = h.result(id) { return db }
        return nil
    }

    // Core Spec v5.4 Vol 3, Part G, §4.4.1, §4.6.1, §4.7.1: the whole database at ATT_MTU 23,
    // handles and end handles exact, the Database Hash read by type (§7.3).
    @Test func fullDiscoveryOfAHeartRateSensor() throws {
        let h = GATTHarness(server: GATTFixtures.heartRateServer())
        h.linkUp()
        let id = h.perform(.discoverAll)
        let db = try #require(discovered(h, id))
        #expect(db == GATTFixtures.heartRateDatabase)
        #expect(db.databaseHash == GATTFixtures.hash)
        #expect(h.session.database == db)
        #expect(h.readyDatabases.count == 1)
        #expect(h.server.inFlightViolations == 0)

        // Read By Group Type twice (four services in two answers at MTU 23, then 0x0018 →
        // Attribute Not Found), one include search and one characteristic search (plus the
        // continuation the MTU forces) per service, Find Information where there is room,
        // Read By Type 0x2B2A last.
        let ops = h.server.requests
        #expect(ops.first == .readByGroupTypeRequest)
        #expect(ops.last == .readByTypeRequest)
        #expect(ops.filter { $0 == .findInformationRequest }.count == 3)
        #expect(ops.allSatisfy { $0 != .readRequest })
    }

    @Test func characteristicEndHandlesComeFromTheNextDeclaration() throws {
        let h = GATTHarness(server: GATTFixtures.heartRateServer())
        h.linkUp()
        let db = try #require(discovered(h, h.perform(.discoverAll)))
        let hr = try #require(db.services.first { $0.uuid == BluetoothUUID(0x180D) })
        #expect(hr.characteristics.map(\.endHandle) == [0x000F, 0x0011, 0x0013])
        #expect(db.characteristic(BluetoothUUID(0x2A37))?.cccdHandle == 0x000F)
        #expect(db.characteristic(BluetoothUUID(0x2A38))?.cccdHandle == nil)
        // The last characteristic of the last service ends at the service's end.
        #expect(db.characteristic(BluetoothUUID(0x2A19))?.endHandle == 0x0017)
    }

    @Test func largerMTUNeedsFewerRequests() throws {
        let small = GATTHarness(server: GATTFixtures.heartRateServer())
        small.linkUp()
        _ = small.perform(.discoverAll)

        let server = GATTFixtures.heartRateServer()
        server.serverRxMTU = 247
        let big = GATTHarness(server: server)
        big.linkUp()
        #expect(big.perform(.exchangeMTU(247)) != OperationID(rawValue: 0))
        #expect(big.session.mtu == 247)
        let db = try #require(discovered(big, big.perform(.discoverAll)))
        #expect(db == GATTFixtures.heartRateDatabase)
        #expect(big.server.requests.count - 1 < small.server.requests.count)
    }

    @Test func thingyLikeDatabaseWith128BitUUIDs() throws {
        let h = GATTHarness(server: GATTFixtures.thingyServer())
        h.linkUp()
        let db = try #require(discovered(h, h.perform(.discoverAll)))
        #expect(db.services.count == 9)
        #expect(db.databaseHash == nil)
        let temperature = try #require(db.characteristic(GATTFixtures.thingyTemperature, in: GATTFixtures.thingyEnvironment))
        #expect(temperature.canNotify)
        #expect(temperature.cccdHandle == temperature.valueHandle + 1)
        #expect(db.services.allSatisfy { s in s.characteristics.allSatisfy { $0.valueHandle == $0.declarationHandle + 1 } })
        // Every attribute of the server is accounted for exactly once.
        var handles: [UInt16] = []
        for s in db.services {
            handles.append(s.startHandle)
            for c in s.characteristics {
                handles += [c.declarationHandle, c.valueHandle] + c.descriptors.map(\.handle)
            }
        }
        #expect(handles == h.server.attributes.map(\.handle))
        // No Database Hash characteristic, so no Read By Type for 0x2B2A.
        let hashReads = h.server.received.filter {
            if case let .readByTypeRequest(q)? = try? ATTPDU.decode($0) { return q.attributeType == .databaseHash }
            return false
        }
        #expect(hashReads.isEmpty)
    }

    // §4.4.2 Discover Primary Service by Service UUID: Find By Type Value, type 0x2800.
    @Test func primaryServiceByUUID() throws {
        let h = GATTHarness(server: GATTFixtures.heartRateServer())
        h.linkUp()
        let id = h.perform(.discoverPrimaryServices(BluetoothUUID(0x180D)))
        guard case let .success(.services(services))? = h.result(id) else {
            Issue.record("no services: \(String(describing: h.result(id)))")
            return
        }
        #expect(services == [GATTService(uuid: BluetoothUUID(0x180D), startHandle: 0x000C, endHandle: 0x0013)])
        // One hit, then the search goes on from 0x0014 and ends with Attribute Not Found.
        #expect(h.server.requests == [.findByTypeValueRequest, .findByTypeValueRequest])
        let first = try ATTPDU.decode(h.server.received[0])
        guard case let .findByTypeValueRequest(request) = first else {
            Issue.record("not a Find By Type Value Request")
            return
        }
        #expect(request.range == .all)
        #expect(request.attributeType == .primaryService)
        #expect(Array(request.attributeValue) == [0x0D, 0x18])
    }

    @Test func primaryServiceByUUIDNotPresent() {
        let h = GATTHarness(server: GATTFixtures.heartRateServer())
        h.linkUp()
        let id = h.perform(.discoverPrimaryServices(BluetoothUUID(0x1816)))
        guard case let .success(.services(services))? = h.result(id) else {
            Issue.record("expected an empty list")
            return
        }
        #expect(services.isEmpty)
    }

    @Test func allPrimaryServices() {
        let h = GATTHarness(server: GATTFixtures.heartRateServer())
        h.linkUp()
        let id = h.perform(.discoverPrimaryServices(nil))
        guard case let .success(.services(services))? = h.result(id) else {
            Issue.record("no services")
            return
        }
        #expect(services.map(\.uuid) == [.genericAccessService, .genericAttributeService, BluetoothUUID(0x180D), BluetoothUUID(0x180F)])
        #expect(services.map(\.endHandle) == [0x0005, 0x000B, 0x0013, 0x0017])
    }

    // §4.4.1: a service ending at 0xFFFF ends the search without another request.
    @Test func serviceEndingAt0xFFFFEndsTheSearch() {
        let server = FakeATTServer { b in
            b.service(BluetoothUUID(0x180D)) { s in s.characteristic(BluetoothUUID(0x2A37), .notify, cccd: true) }
        }
        var attributes = server.attributes
        attributes[0].groupEnd = 0xFFFF
        server.replaceAttributes(attributes)
        let h = GATTHarness(server: server)
        h.linkUp()
        let id = h.perform(.discoverPrimaryServices(nil))
        guard case let .success(.services(services))? = h.result(id) else {
            Issue.record("no services")
            return
        }
        #expect(services.map(\.endHandle) == [0xFFFF])
        #expect(h.server.requests == [.readByGroupTypeRequest])
    }

    // §4.5.1 Find Included Services: a 16-bit include carries the UUID, a 128-bit one is read
    // from the included service declaration; the secondary service is discovered too.
    @Test func includedServicesAndSecondaryServices() throws {
        let vendor = GATTFixtures.includedVendor
        let server = GATTFixtures.includesServer()
        let h = GATTHarness(server: server)
        h.linkUp()
        let db = try #require(discovered(h, h.perform(.discoverAll)))
        #expect(db.services.map(\.uuid) == [BluetoothUUID(0x1810), BluetoothUUID(0x180F), vendor])
        #expect(db.services.map(\.isPrimary) == [true, false, false])
        #expect(db.services[0].includedServices == [
            GATTIncludedService(declarationHandle: 0x0002, startHandle: 0x0020, endHandle: 0x0023, uuid: BluetoothUUID(0x180F)),
            GATTIncludedService(declarationHandle: 0x0003, startHandle: 0x0030, endHandle: 0x0032, uuid: vendor),
        ])
        #expect(db.services[1].characteristics.first?.cccdHandle == 0x0023)
        #expect(db.services[2].characteristics.map(\.uuid) == [GATTFixtures.thingy(0x0901)])
        #expect(h.server.requests.contains(.readRequest))
    }
}
