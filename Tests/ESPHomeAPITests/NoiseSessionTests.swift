import Testing
@testable import ESPHomeAPI

/// The encrypted session end to end in Swift: `NoiseInitiator` as the client, the connection as
/// the proxy (aioesphomeapi holds both to ESPHome's bytes in AioesphomeapiTests).
@Suite struct NoiseSessionTests {
    static let key = try! NoisePresharedKey(base64: "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=")
    static let otherKey = try! NoisePresharedKey(base64: "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=")

    /// HelloRequest { client_info = "t"; api_version_major = 1; api_version_minor = 19 }
    static let hello = APIFrame(type: APIMessageType.helloRequest.rawValue, payload: [0x0A, 0x01, 0x74, 0x10, 0x01, 0x18, 0x13])

    func connection() -> APIServerConnection {
        APIServerConnection(identity: APIServerConnectionTests.identity, key: Self.key, ephemeralPrivateKey: [UInt8](repeating: 7, count: 32))
    }

    @Test func aClientWithTheKeyGetsItsHelloAnsweredAndItsRequestsThroughEncrypted() throws {
        var proxy = connection()
        var client = NoiseInitiator(key: Self.key, ephemeralPrivateKey: [UInt8](repeating: 9, count: 32))
        #expect(proxy.receive(try client.start()).isEmpty)
        #expect(try client.receive(proxy.takeOutput()).isEmpty)
        #expect(client.isEstablished && client.serverName == "rtstack-test")
        #expect(proxy.receive(try client.frame(Self.hello)).isEmpty)
        #expect(try client.receive(proxy.takeOutput()).map(\.type) == [APIMessageType.helloResponse.rawValue])
        let requests = proxy.receive(try client.frame(APIFrame(type: APIMessageType.subscribeBluetoothConnectionsFreeRequest.rawValue, payload: [])))
        #expect(requests == [.subscribeConnectionsFree])
        proxy.send(.connectionsFree(free: 1, limit: 2, allocated: []))
        #expect(try client.receive(proxy.takeOutput()).map(\.type) == [APIMessageType.bluetoothConnectionsFreeResponse.rawValue])
    }

    @Test func aClientWithAnotherKeyIsRejectedWithESPHomesReason() throws {
        var proxy = connection()
        var client = NoiseInitiator(key: Self.otherKey, ephemeralPrivateKey: [UInt8](repeating: 9, count: 32))
        _ = proxy.receive(try client.start())
        #expect(throws: NoiseInitiator.Failure.rejected("Handshake MAC failure")) { try client.receive(proxy.takeOutput()) }
        #expect(proxy.closeReason == NoiseError.authenticationFailed.description)
    }

    @Test func anEncryptedMessageWhoseHeaderLiesClosesTheConnection() throws {
        var proxy = connection()
        var client = NoiseInitiator(key: Self.key, ephemeralPrivateKey: [UInt8](repeating: 9, count: 32))
        _ = proxy.receive(try client.start())
        _ = try client.receive(proxy.takeOutput())
        // Type 1, a length of 200 over 3 bytes of body.
        _ = proxy.receive(try client.encryptedFrame([0x00, 0x01, 0x00, 0xC8, 1, 2, 3]))
        #expect(proxy.closeReason == APIFramingError.malformedNoiseMessage(length: 7).description)
    }
}
