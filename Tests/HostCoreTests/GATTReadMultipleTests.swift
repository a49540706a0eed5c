import Testing
import Wire
@testable import HostCore

/// Read Multiple (Core Spec v5.4 Vol 3, Part G, §4.8.4) and Read Multiple Variable Length
/// (§4.8.5) against `FakeATTServer`'s heart-rate database: 0x0003 Device Name ("rtstack HR"),
/// 0x0005 Appearance (41 03), 0x0011 Body Sensor Location (01), 0x0016 Battery Level (87).
@Suite struct GATTReadMultipleTests {
    private func harness(_ configure: (FakeATTServer) -> Void = { _ in }) -> GATTHarness { .heartRate(configure) }

    private func values(_ h: GATTHarness, _ id: OperationID) -> [(handle: UInt16, value: [UInt8])]? {
        if case let .success(.values(v))? = h.result(id) { return v }
        return nil
    }

    /// The Set Of Handles of each Read Multiple (Variable) Request the server received.
    private func handleSets(_ h: GATTHarness) -> [[UInt16]] {
        h.server.received.compactMap { bytes in
            switch try? ATTPDU.decode(bytes) {
            case let .readMultipleRequest(handles)?, let .readMultipleVariableRequest(handles)?: return handles
            default: return nil
            }
        }
    }

    // §4.8.4: one request; the values come back run together.
    @Test func readMultipleRunsTheValuesTogether() {
        let h = harness()
        let id = h.perform(.readMultiple(handles: [0x0005, 0x0011, 0x0016]))
        #expect(h.value(id) == [0x41, 0x03, 0x01, 87])
        #expect(h.server.requests == [.readMultipleRequest])
        #expect(handleSets(h) == [[0x0005, 0x0011, 0x0016]])
    }

    // Part F, §3.4.4.7: the Set Of Handles holds two or more, and must fit the PDU.
    @Test(arguments: [[UInt16](), [0x0003], [UInt16](repeating: 0x0011, count: 12)])
    func readMultipleRefusesWhatCannotBeOneRequest(handles: [UInt16]) {
        let h = harness()
        let id = h.perform(.readMultiple(handles: handles))
        guard case let .invalidState(text)? = h.error(id) else {
            Issue.record("expected invalidState, got \(String(describing: h.result(id)))")
            return
        }
        #expect(text.contains(handles.count < 2 ? "two or more" : "do not fit"))
        #expect(h.server.requests.isEmpty)
    }

    @Test func readMultipleErrorNamesTheHandle() {
        let h = harness { $0.handleErrors[0x0011] = .readNotPermitted }
        let id = h.perform(.readMultiple(handles: [0x0005, 0x0011]))
        #expect(h.error(id) == .att(error: ATTErrorCode.readNotPermitted.rawValue,
                                    request: ATTOpcode.readMultipleRequest.rawValue, handle: 0x0011))
    }

    // §4.8.5: each value with its own length, in the order asked.
    @Test func readMultipleVariableSplitsTheValues() throws {
        let h = harness()
        let id = h.perform(.readMultipleVariable(handles: [0x0016, 0x0003, 0x0005], when: .always, fallback: false))
        let v = try #require(values(h, id))
        #expect(v.map(\.handle) == [0x0016, 0x0003, 0x0005])
        #expect(v.map(\.value) == [[87], Array("rtstack HR".utf8), [0x41, 0x03]])
        #expect(h.server.requests == [.readMultipleVariableRequest])
    }

    // Part F, §3.4.4.12: the list is cut at ATT_MTU − 1 inside a value; the value is completed
    // with Read Blob from the octets received, and the handles the list did not reach are
    // asked for again.
    @Test func readMultipleVariableCompletesAValueCutShort() throws {
        let long = (0..<60).map { UInt8($0) }
        let h = harness { $0.setValue(long, at: 0x0003) }
        let id = h.perform(.readMultipleVariable(handles: [0x0005, 0x0003, 0x0011, 0x0016], when: .always, fallback: false))
        let v = try #require(values(h, id))
        #expect(v.map(\.value) == [[0x41, 0x03], long, [0x01], [87]])
        // 4 + 2 + 16 octets fill the first answer: 16 of 60 arrive, 22 + 22 more by blob.
        #expect(h.server.requests == [.readMultipleVariableRequest, .readBlobRequest, .readBlobRequest, .readMultipleVariableRequest])
        let offsets = h.server.received.compactMap { bytes -> UInt16? in
            if case let .readBlobRequest(_, offset)? = try? ATTPDU.decode(bytes) { return offset }
            return nil
        }
        #expect(offsets == [16, 38])
        #expect(handleSets(h) == [[0x0005, 0x0003, 0x0011, 0x0016], [0x0011, 0x0016]])
    }

    // More handles than one request carries at ATT_MTU 23 (11), and answers cut after seven
    // values: each request carries on from the first handle not answered.
    @Test func readMultipleVariableCarriesOnInBatches() throws {
        let h = harness()
        let handles = [UInt16](repeating: 0x0011, count: 13)
        let id = h.perform(.readMultipleVariable(handles: handles, when: .always, fallback: false))
        let v = try #require(values(h, id))
        #expect(v.count == 13 && v.allSatisfy { $0.value == [0x01] })
        #expect(handleSets(h).map(\.count) == [11, 6])
    }

    // A lone handle left over is read with a plain read (the request needs two).
    @Test func readMultipleVariableReadsALoneRemainderPlainly() throws {
        let long = [UInt8](repeating: 0x33, count: 19)
        let h = harness { $0.setValue(long, at: 0x0003) }
        // 2 + 19 = 21 octets: the second tuple does not start within ATT_MTU − 1 = 22.
        let id = h.perform(.readMultipleVariable(handles: [0x0003, 0x0016], when: .always, fallback: false))
        let v = try #require(values(h, id))
        #expect(v.map(\.value) == [long, [87]])
        #expect(h.server.requests == [.readMultipleVariableRequest, .readRequest])
    }

    // A server without EATT need not support the request (Part G, §4.2): with fallback the
    // handles are read one by one.
    @Test func readMultipleVariableFallsBackToSingleReads() throws {
        let h = harness { $0.readMultipleVariableSupported = false }
        let id = h.perform(.readMultipleVariable(handles: [0x0003, 0x0005, 0x0016], when: .always, fallback: true))
        let v = try #require(values(h, id))
        #expect(v.map(\.value) == [Array("rtstack HR".utf8), [0x41, 0x03], [87]])
        #expect(h.server.requests == [.readMultipleVariableRequest, .readRequest, .readRequest, .readRequest])
    }

    // Without fallback the peer's Request Not Supported is the answer, by name.
    @Test func readMultipleVariableWithoutFallbackFails() {
        let h = harness { $0.readMultipleVariableSupported = false }
        let id = h.perform(.readMultipleVariable(handles: [0x0003, 0x0005], when: .always, fallback: false))
        #expect(h.error(id)?.attErrorCode == .requestNotSupported)
        #expect(h.error(id)?.attRequestOpcode == .readMultipleVariableRequest)
        #expect(h.error(id)?.description.contains("Request Not Supported (0x06) for Read Multiple Variable Request (0x20)") == true)
        #expect(h.server.requests == [.readMultipleVariableRequest])
    }

    // Another error is not a reason to fall back.
    @Test func readMultipleVariableOtherErrorsFailEvenWithFallback() {
        let h = harness { $0.handleErrors[0x0005] = .insufficientAuthentication }
        let id = h.perform(.readMultipleVariable(handles: [0x0003, 0x0005], when: .always, fallback: true))
        #expect(h.error(id)?.attErrorCode == .insufficientAuthentication)
        #expect(h.server.requests == [.readMultipleVariableRequest])
    }

    // Hostile answers: no value at all, more values than handles, a length past 512 octets.
    @Test(arguments: [
        ([UInt8](), "without any value"),
        ([1, 0, 0x41, 1, 0, 0x42, 1, 0, 0x43], "3 values for 2 handles"),
        ([0x01, 0x02, 0x41], "said to be 513 octets"),
    ])
    func readMultipleVariableRefusesBrokenAnswers(list: [UInt8], problem: String) {
        let h = harness {
            $0.override = { _ in [ATTOpcode.readMultipleVariableResponse.rawValue] + list }
        }
        let id = h.perform(.readMultipleVariable(handles: [0x0003, 0x0005], when: .always, fallback: true))
        guard case let .protocolViolation(text)? = h.error(id) else {
            Issue.record("expected a protocol violation, got \(String(describing: h.result(id)))")
            return
        }
        #expect(text.contains(problem), "\(text)")
        #expect(h.server.requests.count == 1)
    }

    // MARK: - Server Supported Features (Part G, §4.2, §7.4)

    /// A server whose Generic Attribute service has Server Supported Features = `features`
    /// (0x0008/0x0009), then 0x000E "abc" and 0x0010 42.
    static func serverWithFeatures(_ features: [UInt8]?) -> FakeATTServer {
        FakeATTServer { b in
            b.service(.genericAccessService) { s in
                s.characteristic(.deviceName, .read, value: Array("eatt".utf8))
            }
            b.service(.genericAttributeService) { s in
                s.characteristic(.serviceChanged, .indicate, value: [0, 0, 0, 0], cccd: true)
                if let features { s.characteristic(.serverSupportedFeatures, .read, value: features) }
            }
            b.skip(to: 0x000C)
            b.service(BluetoothUUID(0x180F)) { s in
                s.characteristic(BluetoothUUID(0x2A19), .read, value: Array("abc".utf8))
                s.characteristic(BluetoothUUID(0x2A1A), .read, value: [42])
            }
        }
    }

    private func run(_ server: FakeATTServer, fallback: Bool) -> (GATTHarness, OperationID) {
        let h = GATTHarness(server: server)
        h.linkUp()
        return (h, h.perform(.readMultipleVariable(handles: [0x000E, 0x0010], when: .ifServerSupportsEATT, fallback: fallback)))
    }

    // EATT Supported set: the server must answer, so the request goes out.
    @Test func aServerClaimingEATTGetsTheRequest() throws {
        let (h, id) = run(Self.serverWithFeatures([0x01]), fallback: false)
        let v = try #require(values(h, id), "\(String(describing: h.result(id)))")
        #expect(v.map(\.value) == [Array("abc".utf8), [42]])
        #expect(h.server.requests == [.readByTypeRequest, .readMultipleVariableRequest])
    }

    // Without the bit (no characteristic, or the bit clear) the request is never sent: with
    // fallback the handles are read one by one…
    @Test(arguments: [nil, [UInt8(0x00)], [UInt8(0x06)]])
    func aServerWithoutEATTIsReadOneByOne(features: [UInt8]?) throws {
        let (h, id) = run(Self.serverWithFeatures(features), fallback: true)
        let v = try #require(values(h, id), "\(String(describing: h.result(id)))")
        #expect(v.map(\.value) == [Array("abc".utf8), [42]])
        #expect(h.server.requests == [.readByTypeRequest, .readRequest, .readRequest])
    }

    // … without fallback it fails at once, naming why, with nothing sent but the features read.
    @Test func aServerWithoutEATTAndNoFallbackFailsByName() {
        let (h, id) = run(Self.serverWithFeatures(nil), fallback: false)
        guard case let .unsupportedByPeer(text)? = h.error(id) else {
            Issue.record("expected unsupportedByPeer, got \(String(describing: h.result(id)))")
            return
        }
        #expect(text.contains("EATT Supported in Server Supported Features (0x2B3A)"))
        #expect(h.server.requests == [.readByTypeRequest])
    }
}
