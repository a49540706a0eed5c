import Testing
@testable import ESPHomeAPI

/// The connection's own answers, over plaintext frames built here from the message layouts;
/// the same exchanges against Home Assistant's real client are in AioesphomeapiTests.
@Suite struct APIServerConnectionTests {
    static let identity = ProxyIdentity(name: "rtstack-test", friendlyName: "rtstack test", macAddress: "AA:BB:CC:DD:EE:01",
                                        bluetoothMACAddress: "AA:BB:CC:DD:EE:01",
                                        features: [.passiveScan, .activeConnections, .remoteCaching, .rawAdvertisements])

    func frames(_ bytes: [UInt8]) throws -> [APIFrame] {
        var decoder = PlaintextFraming()
        decoder.append(bytes)
        var frames: [APIFrame] = []
        while let frame = try decoder.next() { frames.append(frame) }
        return frames
    }

    func request(_ type: APIMessageType, _ payload: [UInt8] = []) -> [UInt8] {
        var bytes: [UInt8] = []
        PlaintextFraming.encode(APIFrame(type: type.rawValue, payload: payload), into: &bytes)
        return bytes
    }

    /// HelloRequest { client_info = "t"; api_version_major = 1; api_version_minor = 19 }
    var hello: [UInt8] { request(.helloRequest, [0x0A, 0x01, 0x74, 0x10, 0x01, 0x18, 0x13]) }

    @Test func helloIsAnsweredWithTheProxysVersionAndName() throws {
        var connection = APIServerConnection(identity: Self.identity, key: nil)
        #expect(connection.receive(hello).isEmpty)
        #expect(connection.isReady)
        #expect(connection.clientInfo == "t")
        #expect(connection.acceptsShortUUIDs)
        let reply = try frames(connection.takeOutput())
        #expect(reply.map(\.type) == [APIMessageType.helloResponse.rawValue])
        // api_version_major 1, minor 12, then server_info and name.
        #expect(Array(reply[0].payload.prefix(4)) == [0x08, 0x01, 0x10, 0x0C])
        #expect(String(decoding: reply[0].payload.suffix(12), as: UTF8.self) == "rtstack-test")
    }

    @Test func anAuthenticationRequestSentWithTheHelloGetsNoAnswer() throws {
        var connection = APIServerConnection(identity: Self.identity, key: nil)
        _ = connection.receive(hello + request(.authenticationRequest))
        #expect(try frames(connection.takeOutput()).map(\.type) == [APIMessageType.helloResponse.rawValue])
        #expect(connection.closeReason == nil)
    }

    @Test func pingDeviceInfoAndEntityListAreAnsweredHere() throws {
        var connection = APIServerConnection(identity: Self.identity, key: nil)
        _ = connection.receive(hello)
        _ = connection.takeOutput()
        let requests = connection.receive(request(.pingRequest) + request(.deviceInfoRequest) + request(.listEntitiesRequest)
                                          + request(.subscribeStatesRequest))
        #expect(requests.isEmpty)
        #expect(try frames(connection.takeOutput()).map(\.type) == [8, 10, 19])
    }

    @Test func bluetoothRequestsGoToTheProxyInOrder() throws {
        var connection = APIServerConnection(identity: Self.identity, key: nil)
        _ = connection.receive(hello)
        // BluetoothGATTReadRequest { address = 0x112233445566; handle = 0x2A }
        let read = request(.bluetoothGATTReadRequest, [0x08, 0xE6, 0xAA, 0x91, 0x9A, 0xA3, 0xA4, 0x04, 0x10, 0x2A])
        let requests = connection.receive(request(.subscribeBluetoothConnectionsFreeRequest) + read)
        #expect(requests == [.subscribeConnectionsFree, .read(address: 0x1122_3344_5566, handle: 0x2A)])
    }

    @Test func anUnknownMessageTypeClosesTheConnectionWithItsNumber() {
        var connection = APIServerConnection(identity: Self.identity, key: nil)
        _ = connection.receive(hello)
        var bytes: [UInt8] = []
        PlaintextFraming.encode(APIFrame(type: 9999, payload: []), into: &bytes)
        _ = connection.receive(bytes)
        #expect(connection.closeReason?.contains("9999") == true)
    }

    @Test func aMessageBeforeTheHelloClosesTheConnection() {
        var connection = APIServerConnection(identity: Self.identity, key: nil)
        _ = connection.receive(request(.deviceInfoRequest))
        #expect(connection.closeReason != nil)
        #expect(!connection.isReady)
    }

    @Test func aMalformedMessageBodyClosesTheConnection() {
        var connection = APIServerConnection(identity: Self.identity, key: nil)
        _ = connection.receive(hello)
        // A length-delimited field whose length runs past the body.
        _ = connection.receive(request(.bluetoothGATTReadRequest, [0x0A, 0x40, 0x01]))
        #expect(connection.closeReason?.contains("not a valid protobuf encoding") == true)
    }

    @Test func aServiceListUsesShortUUIDsOnlyForUUIDsOnTheBluetoothBase() {
        let heartRate = ProxyUUID(short: 0x180D)
        #expect(heartRate.short == 0x180D)
        #expect(ProxyUUID(high: 0xEF68_0100_9B35_4933, low: 0x9B10_52FF_A974_0042).short == nil)
        let short = ServerMessage.services(address: 1, [ProxyGATTService(uuid: heartRate, handle: 1, characteristics: [])], shortUUIDs: true).frame
        let long = ServerMessage.services(address: 1, [ProxyGATTService(uuid: heartRate, handle: 1, characteristics: [])], shortUUIDs: false).frame
        // services { handle = 1; short_uuid = 0x180D } against services { uuid = [high, low]; handle = 1 }.
        #expect(short.payload == [0x08, 0x01, 0x12, 0x05, 0x10, 0x01, 0x20, 0x8D, 0x30])
        #expect(long.payload.count > short.payload.count)
    }
}
