import Testing
import Wire
@testable import HostCore

/// Peers that break the protocol, by accident or on purpose: every procedure must end, with a
/// protocol violation that names what was wrong, after a bounded number of requests.
@Suite struct GATTHostileTests {
    private func run(_ server: FakeATTServer, _ operation: GATTOperation) -> (GATTHarness, HostError?) {
        let h = GATTHarness(server: server)
        h.linkUp()
        let id = h.perform(operation)
        #expect(h.completions(id) == 1)
        #expect(h.server.inFlightViolations == 0)
        return (h, h.error(id))
    }

    private func violation(_ error: HostError?) -> String? {
        if case let .protocolViolation(text)? = error { return text }
        return nil
    }

    // Core Spec v5.4 Vol 3, Part G, §4.6.1: the next request starts after the last handle
    // found; a peer answering the same declaration again does not move it.
    @Test func readByTypeThatNeverAdvancesEnds() throws {
        let server = GATTFixtures.heartRateServer()
        server.nonAdvancingReadByType = true
        let (h, error) = run(server, .discoverAll)
        let text = try #require(violation(error))
        #expect(text.contains("Read By Type Response"))
        #expect(text.contains("outside the requested range"))
        #expect(h.server.requests.count <= 5)
    }

    @Test func nonAdvancingPeerStopsThePlan() {
        let server = GATTFixtures.heartRateServer()
        server.nonAdvancingReadByType = true
        let h = GATTHarness(server: server, plan: GATTHarness.plan(discover: true, subscriptions: [GATTPlanTests.heartRate]))
        h.linkUp()
        guard case .protocolViolation? = h.session.failure else {
            Issue.record("expected a failed plan, got \(String(describing: h.session.failure))")
            return
        }
        #expect(h.sessionFailures.count == 1)
        #expect(h.warnings.contains { $0.contains("plan stopped") && $0.contains("Read By Type Response") })
        #expect(h.session.state == .discovering)
        #expect(h.session.isBearerOpen)
        // The bearer still works for the application.
        #expect(h.value(h.perform(.read(handle: 0x0011))) == [1])
    }

    // §4.4.1: a Read By Group Type answer that goes back to a service already found.
    @Test func groupTypeAnswerGoingBackwards() throws {
        let server = GATTFixtures.heartRateServer()
        let again = ATTPDU.readByGroupTypeResponse([
            ATTGroupAttributeData(attributeHandle: 0x0001, endGroupHandle: 0x0005, value: [0x00, 0x18]),
        ]).encoded
        server.override = { _ in again }
        let (_, error) = run(server, .discoverPrimaryServices(nil))
        let text = try #require(violation(error))
        #expect(text.contains("Read By Group Type Response"))
        #expect(text.contains("0x0001"))
    }

    @Test(arguments: [
        // Group ends before it starts.
        [ATTGroupAttributeData(attributeHandle: 0x0010, endGroupHandle: 0x0008, value: [0x0D, 0x18])],
        // Two groups out of order.
        [ATTGroupAttributeData(attributeHandle: 0x0010, endGroupHandle: 0x0012, value: [0x0D, 0x18]),
         ATTGroupAttributeData(attributeHandle: 0x0011, endGroupHandle: 0x0014, value: [0x0F, 0x18])],
        // A service UUID of 3 bytes.
        [ATTGroupAttributeData(attributeHandle: 0x0001, endGroupHandle: 0x0005, value: [0x0D, 0x18, 0x00])],
    ])
    func brokenGroupLists(list: [ATTGroupAttributeData]) {
        let server = GATTFixtures.heartRateServer()
        let bytes = ATTPDU.readByGroupTypeResponse(list).encoded
        server.override = { _ in bytes }
        let (h, error) = run(server, .discoverAll)
        #expect(violation(error) != nil)
        #expect(h.server.requests.count == 1)
    }

    // §4.4.2: Find By Type Value answers before the requested start.
    @Test func findByTypeValueGoingBackwards() {
        let server = GATTFixtures.heartRateServer()
        let bytes = ATTPDU.findByTypeValueResponse([ATTHandlesInformation(foundAttributeHandle: 0x000C, groupEndHandle: 0x000E)]).encoded
        server.override = { _ in bytes }
        let (h, error) = run(server, .discoverPrimaryServices(BluetoothUUID(0x180D)))
        #expect(violation(error)?.contains("Find By Type Value Response") == true)
        #expect(h.server.requests.count == 2)
    }

    // §4.7.1: descriptors outside the characteristic's range.
    @Test func findInformationOutsideTheRange() {
        let server = GATTFixtures.heartRateServer()
        server.override = { request in
            guard case .findInformationRequest = request else { return nil }
            return ATTPDU.findInformationResponse(ATTFindInformationResponse(informationData: [
                ATTInformationData(handle: 0x0030, uuid: .clientCharacteristicConfiguration),
            ])).encoded
        }
        let (_, error) = run(server, .discoverAll)
        #expect(violation(error)?.contains("Find Information Response") == true)
    }

    // §3.3.1: a characteristic's value handle comes after its declaration.
    @Test(arguments: [
        [UInt8(0x10), 0x02, 0x00, 0x37, 0x2A],      // value handle = declaration
        [0x10, 0x01, 0x00, 0x37, 0x2A],             // value handle before it
        [0x10, 0x40, 0x00, 0x37, 0x2A],             // value handle past the service
        [0x10, 0x03, 0x00, 0x37, 0x2A, 0x00],       // 3-byte UUID (decoder refuses)
    ])
    func brokenCharacteristicDeclarations(value: [UInt8]) {
        let server = GATTFixtures.heartRateServer()
        let bytes = ATTPDU.readByTypeResponse([ATTHandleValue(handle: 0x0002, value: value)]).encoded
        server.override = { request in
            if case .readByTypeRequest = request { return bytes }
            return nil
        }
        let (_, error) = run(server, .discoverAll)
        #expect(violation(error)?.contains("0x0002") == true)
    }

    // Wrong lengths in a list are the decoder's to catch (Vol 3, Part F, §3.4.4.2): a
    // WireError becomes a protocol violation, reported with the bytes.
    @Test func listThatDoesNotTileIsCaughtByTheDecoder() {
        let server = GATTFixtures.heartRateServer()
        server.override = { _ in [0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18, 0x06, 0x00] }
        let (h, error) = run(server, .discoverAll)
        #expect(violation(error)?.contains("Read By Group Type Response") == true)
        #expect(h.warnings.contains { $0.contains("11 06 01 00 05 00 00 18 06 00") })
    }

    // §3.2.9: no value is longer than 512 octets; endless full blobs stop there.
    @Test func endlessReadBlobStops() {
        let server = GATTFixtures.heartRateServer()
        server.setValue([UInt8](repeating: 1, count: 22), at: 0x0003)
        server.endlessBlobs = true
        let (h, error) = run(server, .readLong(handle: 0x0003))
        #expect(violation(error)?.contains("512") == true)
        #expect(h.server.requests.count < 30)
    }

    @Test func includeLoopIsNotFollowed() throws {
        // Two services including each other (§3.2 forbids it): each is discovered once.
        let server = FakeATTServer { b in
            b.service(BluetoothUUID(0x1810)) { s in
                s.include(start: 0x0010, end: 0x0013, uuid: BluetoothUUID(0x180F))
                s.characteristic(BluetoothUUID(0x2A35), .indicate, cccd: true)
            }
            b.skip(to: 0x0010)
            b.service(BluetoothUUID(0x180F), primary: false) { s in
                s.include(start: 0x0001, end: 0x0005, uuid: BluetoothUUID(0x1810))
                s.characteristic(BluetoothUUID(0x2A19), .read, value: [1])
            }
        }
        let h = GATTHarness(server: server)
        h.linkUp()
        guard case let .success(.database(db))? = h.result(h.perform(.discoverAll)) else {
            Issue.record("discovery failed")
            return
        }
        #expect(db.services.map(\.startHandle) == [0x0001, 0x0010])
    }

    // Random answers, mostly well-formed with random handles, some broken, some errors, some
    // of the wrong kind: every operation ends exactly once (the transaction timer ends what
    // the peer leaves hanging), the plan ends, and nothing traps.
    static let fuzzedOperations: [GATTOperation] = [
        .discoverAll,
        .readLong(handle: 0x0003),
        .readByType(BluetoothUUID(0x2A37), range: 0x0001...0xFFFF),
        .writeLong(handle: 0x0003, value: [UInt8](repeating: 3, count: 40)),
        .discoverPrimaryServices(BluetoothUUID(0x180D)),
        .discoverPrimaryServices(nil),
    ]

    @Test(arguments: 0..<60)
    func randomAnswersAlwaysEnd(seed: Int) {
        var rng = GATTTestRNG(seed: UInt64(seed))
        var requests = 0
        for operation in Self.fuzzedOperations {
            let server = GATTFixtures.heartRateServer()
            server.override = { request in GATTHostilePeer.answer(request, &rng) }
            let h = GATTHarness(server: server)
            h.linkUp()
            let id = h.perform(operation)
            var rounds = 0
            while h.completions(id) == 0, rounds < 3 {
                h.advance(by: HostDuration.seconds(31))
                rounds += 1
            }
            #expect(h.completions(id) == 1)
            #expect(h.server.inFlightViolations == 0)
            requests += h.server.requests.count
        }
        // The whole plan against the same kind of peer.
        let server = GATTFixtures.heartRateServer()
        server.override = { request in GATTHostilePeer.answer(request, &rng) }
        let h = GATTHarness(server: server, plan: GATTHarness.plan(mtu: 247, discover: true,
                                                                    subscriptions: [GATTPlanTests.heartRate]))
        h.linkUp()
        h.advance(by: HostDuration.seconds(31))
        #expect(h.session.state == .ready || h.session.failure != nil)
        #expect(h.session.nextDeadline == nil)
        #expect(h.server.inFlightViolations == 0)
        #expect(requests + h.server.requests.count < 200_000)
    }
}

/// Deterministic generator (SplitMix64) so a failing random test can be replayed by its seed.
struct GATTTestRNG: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Answers that look right often enough to drive procedures deep, and are wrong in every way.
enum GATTHostilePeer {
    static func answer(_ request: ATTPDU, _ rng: inout GATTTestRNG) -> [UInt8] {
        let roll = Int.random(in: 0..<100, using: &rng)
        // 0–74 well-formed, 75–84 Error Response, 85–94 right opcode with random bytes, 95–99 anything.
        let start = requestStart(request)
        // Handles that mostly move forward from the request's start, now and then not.
        var cursor = Int(start)
        func near() -> UInt16 {
            let step = Int.random(in: 0..<10, using: &rng) == 0 ? Int.random(in: -4...0, using: &rng) : Int.random(in: 0...6, using: &rng)
            cursor += step
            defer { cursor += 1 }
            return UInt16(clamping: cursor)
        }
        func span() -> UInt16 { UInt16.random(in: 0...12, using: &rng) }
        switch roll {
        case 0..<75:
            // Well-formed response of the right kind with random handles near the request.
            switch request {
            case .readByGroupTypeRequest:
                let n = Int.random(in: 1...3, using: &rng)
                return ATTPDU.readByGroupTypeResponse((0..<n).map { _ in
                    let a = near()
                    let end = a &+ span()
                    cursor = max(cursor, Int(end) + 1)
                    return ATTGroupAttributeData(attributeHandle: a, endGroupHandle: end, value: [0x0D, 0x18])
                }).encoded
            case .findByTypeValueRequest:
                let a = near()
                let end = a &+ span()
                return ATTPDU.findByTypeValueResponse([ATTHandlesInformation(foundAttributeHandle: a, groupEndHandle: end)]).encoded
            case .readByTypeRequest:
                let n = Int.random(in: 1...3, using: &rng)
                return ATTPDU.readByTypeResponse((0..<n).map { _ in
                    let a = near()
                    let valueHandle = a &+ (Int.random(in: 0..<10, using: &rng) == 0 ? 0 : 1)
                    cursor = max(cursor, Int(valueHandle) + 1)
                    let value = CharacteristicDeclaration(properties: CharacteristicProperties(rawValue: UInt8.random(in: 0...255, using: &rng)),
                                                          valueHandle: valueHandle, uuid: BluetoothUUID(0x2A37)).encoded
                    return ATTHandleValue(handle: a, value: value)
                }).encoded
            case .findInformationRequest:
                let n = Int.random(in: 1...3, using: &rng)
                return ATTPDU.findInformationResponse(ATTFindInformationResponse(informationData: (0..<n).map { _ in
                    ATTInformationData(handle: near(), uuid: .clientCharacteristicConfiguration)
                })).encoded
            case .readRequest:
                return ATTPDU.readResponse(value: ArraySlice(repeating: 7, count: Int.random(in: 0...30, using: &rng))).encoded
            case .readBlobRequest:
                return ATTPDU.readBlobResponse(partAttributeValue: ArraySlice(repeating: 7, count: Int.random(in: 0...30, using: &rng))).encoded
            case let .prepareWriteRequest(p):
                var echo = p
                if Int.random(in: 0..<8, using: &rng) == 0 { echo.valueOffset &+= 1 }
                return ATTPDU.prepareWriteResponse(echo).encoded
            case .executeWriteRequest:
                return ATTPDU.executeWriteResponse.encoded
            case .writeRequest:
                return ATTPDU.writeResponse.encoded
            case .exchangeMTURequest:
                return ATTPDU.exchangeMTUResponse(serverRxMTU: UInt16.random(in: 0...600, using: &rng)).encoded
            default:
                return ATTPDU.errorResponse(ATTErrorResponse(requestOpcodeInError: request.opcode, attributeHandleInError: 0,
                                                             errorCode: .requestNotSupported)).encoded
            }
        case 75..<85:
            // Error Response for this request; Attribute Not Found half the time.
            let code = Bool.random(using: &rng) ? ATTErrorCode.attributeNotFound : ATTErrorCode(UInt8.random(in: 0...255, using: &rng))
            return ATTPDU.errorResponse(ATTErrorResponse(requestOpcodeInError: request.opcode, attributeHandleInError: near(),
                                                         errorCode: code)).encoded
        case 85..<95:
            // The right response opcode, random parameters.
            let opcode = request.opcode.responseOpcode?.rawValue ?? 0x01
            return [opcode] + (0..<Int.random(in: 0...24, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        default:
            // Anything at all (often dropped as unexpected: the request then times out).
            return (0..<Int.random(in: 0...12, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        }
    }

    private static func requestStart(_ pdu: ATTPDU) -> UInt16 {
        switch pdu {
        case let .readByGroupTypeRequest(q), let .readByTypeRequest(q): return q.range.startingHandle
        case let .findByTypeValueRequest(r): return r.range.startingHandle
        case let .findInformationRequest(r): return r.startingHandle
        default: return 1
        }
    }
}
