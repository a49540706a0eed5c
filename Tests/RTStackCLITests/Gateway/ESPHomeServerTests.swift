#if canImport(Glibc)
import Glibc
#endif
import ESPHomeAPI
import HostCore
import Testing
@testable import RTStackCLI

/// The native API's listener over real loopback sockets: where it listens, what it tells a user
/// who gave a bad endpoint, and the exchange a well-behaved client has with it. The hostile
/// and broken clients are in ESPHomeServerHostileClientTests.
@Suite struct ESPHomeServerTests {
    @Test func anEndpointIsAPortAloneAHostAndPortOrABracketedIPv6Address() throws {
        #expect(try ESPHomeEndpoint(parsing: "6053") == ESPHomeEndpoint(host: nil, port: 6053))
        #expect(try ESPHomeEndpoint(parsing: "0.0.0.0:6054") == ESPHomeEndpoint(host: "0.0.0.0", port: 6054))
        #expect(try ESPHomeEndpoint(parsing: "proxy.local:6053") == ESPHomeEndpoint(host: "proxy.local", port: 6053))
        #expect(try ESPHomeEndpoint(parsing: "[::1]:6053") == ESPHomeEndpoint(host: "::1", port: 6053))
        #expect(try ESPHomeEndpoint(parsing: "[::1]:6053").description == "[::1]:6053")
        #expect(ESPHomeEndpoint().description == "*:6053")
    }

    @Test func anEndpointThatIsNoHostAndPortSaysHowToWriteOne() {
        func problem(_ text: String) -> String {
            do throws(ESPHomeServerError) {
                _ = try ESPHomeEndpoint(parsing: text)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(problem("::1").contains("in brackets before the port, e.g. [::1]:6053"))
        #expect(problem("[::1]").contains("the port is missing"))
        #expect(problem("[::1:6053").contains("no closing ']'"))
        #expect(problem("70000").contains("'70000' is not a port number (0 to 65535"))
        #expect(problem("localhost:api").contains("'api' is not a port number"))
        #expect(problem(":6053").contains("give PORT alone"))
        #expect(problem("+53").contains("not a port number"))
    }

    @Test func aSecondServerOnTheSamePortIsToldThePortIsInUseAndWhatToDo() throws {
        let first = try ESPHomeServer.loopback()
        defer { first.closeAll(because: "test over") }
        do throws(ESPHomeServerError) {
            _ = try ESPHomeServer(endpoint: ESPHomeEndpoint(host: "127.0.0.1", port: first.port), identity: ESPHomeTestClient.identity, key: nil)
            Issue.record("a second server bound the same port")
        } catch {
            #expect(error == .addressInUse(ESPHomeEndpoint(host: "127.0.0.1", port: first.port)))
            #expect(error.description.hasPrefix("ESPHome API port \(first.port) is in use"))
            #expect(error.description.contains("give another port with --esphome [HOST:]PORT"))
        }
    }

    @Test func aHostThatIsNoAddressOfThisMachineIsNamedAsSuch() {
        do throws(ESPHomeServerError) {
            _ = try ESPHomeServer(endpoint: ESPHomeEndpoint(host: "192.0.2.1", port: 0), identity: ESPHomeTestClient.identity, key: nil)
            Issue.record("bound an address of TEST-NET-1")
        } catch {
            #expect(error == .addressNotAvailable(ESPHomeEndpoint(host: "192.0.2.1", port: 0)))
        }
    }

    @Test func thePortAloneListensOnEveryAddressAndTakesIPv4Clients() throws {
        let server = try ESPHomeServer(endpoint: ESPHomeEndpoint(host: nil, port: 0), identity: ESPHomeTestClient.identity, key: nil)
        defer { server.closeAll(because: "test over") }
        #expect(!server.address.isLoopback)
        let client = try ESPHomeTestClient(port: server.port)
        defer { client.close() }
        let id = try server.acceptNewest()
        client.write(ESPHomeTestClient.frame(.deviceInfoRequest))
        #expect(server.pump(id).closed)
        // A dual-stack listener sees 127.0.0.1 as ::ffff:127.0.0.1; the log shows the former.
        let lines = server.takeLog().map(\.1)
        #expect(lines.contains { $0.hasPrefix("ESPHome API client 127.0.0.1:") && $0.contains("before its hello") })
    }

    @Test func listeningBeyondLoopbackWithoutAKeyIsSaidOnceAtStartAndNotOtherwise() throws {
        let open = try ESPHomeServer(endpoint: ESPHomeEndpoint(host: "0.0.0.0", port: 0), identity: ESPHomeTestClient.identity, key: nil)
        defer { open.closeAll(because: "test over") }
        #expect(open.unencryptedNotice?.contains("is not encrypted") == true)
        #expect(open.unencryptedNotice?.contains("--esphome-key") == true)
        let local = try ESPHomeServer.loopback()
        defer { local.closeAll(because: "test over") }
        #expect(local.unencryptedNotice == nil)
        let keyed = try ESPHomeServer(endpoint: ESPHomeEndpoint(host: "0.0.0.0", port: 0), identity: ESPHomeTestClient.identity,
                                      key: try NoisePresharedKey(base64: "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE="))
        defer { keyed.closeAll(because: "test over") }
        #expect(keyed.unencryptedNotice == nil)
    }

    @Test func aClientsHelloIsAnsweredAndItsBluetoothRequestsComeUpInOrder() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let client = try ESPHomeTestClient(port: server.port)
        defer { client.close() }
        let id = try server.acceptNewest()
        #expect(!server.isReady(id))
        #expect(server.descriptors().map(\.client) == [nil, id])
        client.write(ESPHomeTestClient.hello + ESPHomeTestClient.frame(.subscribeBluetoothConnectionsFreeRequest)
                     + ESPHomeTestClient.frame(.unsubscribeBluetoothLEAdvertisementsRequest))
        let (requests, closed) = server.pump(id)
        #expect(!closed)
        #expect(requests == [.subscribeConnectionsFree, .unsubscribeAdvertisements])
        #expect(server.isReady(id) && server.acceptsShortUUIDs(id))
        #expect(try ESPHomeTestClient.types(client.readAvailable()) == [APIMessageType.helloResponse.rawValue])
        #expect(server.send(.connectionsFree(free: 3, limit: 3, allocated: []), to: id))
        #expect(try ESPHomeTestClient.types(client.readAvailable()) == [APIMessageType.bluetoothConnectionsFreeResponse.rawValue])
    }

    @Test func aClientThatSaysGoodbyeIsClosedWithAnInformationalLine() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let (client, id) = try server.readyClient()
        defer { client.close() }
        _ = server.takeLog()
        client.write(ESPHomeTestClient.frame(.disconnectRequest))
        #expect(server.pump(id).closed)
        #expect(try ESPHomeTestClient.types(client.readAvailable()) == [APIMessageType.disconnectResponse.rawValue])
        #expect(client.seesClose())
        let log = server.takeLog()
        #expect(log.count == 1 && log[0].0 == .info && log[0].1.hasSuffix("(t): the client disconnected"))
        #expect(!server.send(.ping, to: id))
    }

    @Test func closingAllTellsReadyClientsToDisconnectAndStopsListening() throws {
        let server = try ESPHomeServer.loopback()
        let port = server.port
        let (ready, _) = try server.readyClient()
        defer { ready.close() }
        let waiting = try ESPHomeTestClient(port: port)
        defer { waiting.close() }
        _ = try server.acceptNewest()
        server.closeAll(because: "the gateway stops")
        #expect(try ESPHomeTestClient.types(ready.readAvailable()) == [APIMessageType.disconnectRequest.rawValue])
        #expect(ready.seesClose())
        #expect(waiting.readAvailable(wait: 200).isEmpty)
        #expect(waiting.seesClose())
        #expect(server.clients.isEmpty && server.descriptors().isEmpty)
        #expect(server.takeLog().last?.1 == "closed 2 ESPHome API client(s): the gateway stops")
        #expect(ESPHomeTestClient.connectionRefused(port: port))
    }
}
