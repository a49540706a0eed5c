import Testing
import Wire
@testable import HostCore

/// The discovery sub-procedures over a handle range the caller gives (Core Spec v5.4 Vol 3,
/// Part G, §4.5.1, §4.6.1, §4.6.2, §4.7.1), as `rtstack gatt --range` and the `Peripheral`
/// API run them. The heart-rate database (`GATTFixtures.heartRateServer`) has Heart Rate at
/// 0x000C–0x0013: 2A37 at 000D/000E with its CCCD at 000F, 2A38 at 0010/0011, 2A39 at 0012/0013.
@Suite struct GATTRangeDiscoveryTests {
    private func run(_ operation: GATTOperation, _ server: FakeATTServer = GATTFixtures.heartRateServer()) -> (GATTHarness, Result<GATTResult, HostError>?) {
        let h = GATTHarness(server: server)
        h.linkUp()
        let id = h.perform(operation)
        #expect(h.completions(id) == 1)
        #expect(h.server.inFlightViolations == 0)
        return (h, h.result(id))
    }

    /// Starting Handle of each Read By Type Request the server received.
    private func readByTypeStarts(_ h: GATTHarness) -> [UInt16] {
        h.server.received.compactMap { bytes in
            if case let .readByTypeRequest(q)? = try? ATTPDU.decode(bytes) { return q.range.startingHandle }
            return nil
        }
    }

    @Test func allCharacteristicsOfARange() throws {
        let (h, result) = run(.discoverCharacteristics(range: 0x000C...0x0013, uuid: nil))
        guard case let .success(.characteristics(found))? = result else {
            Issue.record("no characteristics: \(String(describing: result))")
            return
        }
        let expected = GATTFixtures.heartRateDatabase.services[2].characteristics.map {
            var c = $0
            c.descriptors = []
            return c
        }
        #expect(found == expected)
        // At ATT_MTU 23 one answer carries three 7-octet declarations: all of them.
        #expect(readByTypeStarts(h) == [0x000C])
    }

    // Each request starts one past the last declaration of the previous answer, the last
    // Attribute Handle in it (§4.6.1), and the walk ends when no room is left for another
    // declaration and value after the last value.
    @Test func theWalkGoesOnFromTheLastDeclaration() {
        let (h, result) = run(.discoverCharacteristics(range: 0x0001...0x0017, uuid: nil))
        guard case let .success(.characteristics(found))? = result else {
            Issue.record("no characteristics: \(String(describing: result))")
            return
        }
        #expect(found.map(\.valueHandle) == [0x0003, 0x0005, 0x0008, 0x000B, 0x000E, 0x0011, 0x0013, 0x0016])
        #expect(readByTypeStarts(h) == [0x0001, 0x0008, 0x0011])
        #expect(found.last?.endHandle == 0x0017)
    }

    // §4.6.2: only 2A38, yet its end still comes from the next declaration (2A39's).
    @Test func characteristicsByUUID() {
        let (h, result) = run(.discoverCharacteristics(range: 0x0001...0xFFFF, uuid: BluetoothUUID(0x2A38)))
        guard case let .success(.characteristics(found))? = result else {
            Issue.record("no characteristics: \(String(describing: result))")
            return
        }
        #expect(found == [GATTCharacteristic(uuid: BluetoothUUID(0x2A38), declarationHandle: 0x0010, valueHandle: 0x0011,
                                             properties: 0x02, endHandle: 0x0011)])
        #expect(h.server.requests.allSatisfy { $0 == .readByTypeRequest })
    }

    @Test func aRangeWithoutCharacteristicsIsEmpty() {
        let (_, result) = run(.discoverCharacteristics(range: 0x0014...0x0014, uuid: nil))
        guard case let .success(.characteristics(found))? = result else {
            Issue.record("expected an empty list: \(String(describing: result))")
            return
        }
        #expect(found.isEmpty)
    }

    @Test func descriptorsOfARange() {
        let (h, result) = run(.discoverDescriptors(range: 0x000F...0x000F))
        guard case let .success(.descriptors(found))? = result else {
            Issue.record("no descriptors: \(String(describing: result))")
            return
        }
        #expect(found == [GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: 0x000F)])
        #expect(h.server.requests == [.findInformationRequest])
    }

    // Find Information over a wider range names every attribute, declarations included.
    @Test func descriptorsOfAWideRangeListEveryAttribute() {
        let (_, result) = run(.discoverDescriptors(range: 0x000C...0x0011))
        guard case let .success(.descriptors(found))? = result else {
            Issue.record("no descriptors: \(String(describing: result))")
            return
        }
        #expect(found.map(\.handle) == Array(0x000C...0x0011))
        #expect(found.map(\.uuid) == [.primaryService, .characteristic, BluetoothUUID(0x2A37), .clientCharacteristicConfiguration,
                                      .characteristic, BluetoothUUID(0x2A38)])
    }

    // §4.5.1: a 16-bit include carries its UUID; a 128-bit one is read from the included
    // service's declaration.
    @Test func includedServicesOfARange() {
        let vendor = GATTFixtures.includedVendor
        let server = GATTFixtures.includesServer()
        let (h, result) = run(.findIncludedServices(range: 0x0001...0x0006), server)
        guard case let .success(.includedServices(found))? = result else {
            Issue.record("no included services: \(String(describing: result))")
            return
        }
        #expect(found == [
            GATTIncludedService(declarationHandle: 0x0002, startHandle: 0x0020, endHandle: 0x0023, uuid: BluetoothUUID(0x180F)),
            GATTIncludedService(declarationHandle: 0x0003, startHandle: 0x0030, endHandle: 0x0032, uuid: vendor),
        ])
        // Entries of one answer share a length, so the 16-bit include comes alone; the 128-bit
        // UUID is read as soon as its include is found, before the walk goes on.
        #expect(h.server.requests == [.readByTypeRequest, .readByTypeRequest, .readRequest, .readByTypeRequest])
    }

    // Handle 0x0000 is reserved (Part F, §3.2.2).
    @Test(arguments: [GATTOperation.findIncludedServices(range: 0...5), .discoverCharacteristics(range: 0...5, uuid: nil),
                      .discoverDescriptors(range: 0...0)])
    func aRangeFromHandleZeroIsRefused(operation: GATTOperation) {
        let (h, result) = run(operation)
        guard case let .failure(.invalidState(text))? = result else {
            Issue.record("expected invalidState, got \(String(describing: result))")
            return
        }
        #expect(text.contains("0x0001"))
        #expect(h.server.requests.isEmpty)
    }

    // A declaration outside the range asked for is a protocol violation, not a result.
    @Test func aDeclarationOutsideTheRangeIsRefused() {
        let server = GATTFixtures.heartRateServer()
        server.override = { pdu in
            guard case .readByTypeRequest = pdu else { return nil }
            return ATTPDU.readByTypeResponse([ATTHandleValue(handle: 0x0030, value: CharacteristicDeclaration(
                properties: .read, valueHandle: 0x0031, uuid: BluetoothUUID(0x2A38)).encoded)]).encoded
        }
        let (_, result) = run(.discoverCharacteristics(range: 0x000C...0x0013, uuid: nil), server)
        guard case .failure(.protocolViolation)? = result else {
            Issue.record("expected a protocol violation, got \(String(describing: result))")
            return
        }
    }
}
