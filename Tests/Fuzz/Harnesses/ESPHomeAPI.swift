// libFuzzer harness: the Home Assistant proxy's protocol layer (Sources/ESPHomeAPI) as a
// hostile API client drives it: both framings, the Noise handshake's frames, every message
// decoder, and the connection's answers.
//
// Input: [mode] rest…
//   mode bits 7 and 6 set: an encrypted session. The harness is the client holding the key
//   (NoiseInitiator): it completes the handshake, sends a valid hello when bit 0 is set, then
//   each [length lo][length hi] message… of the rest encrypted as one Noise frame: the bytes
//   the proxy decrypts (type-and-length header included, or not) are the fuzzer's, which random
//   ciphertext never reaches.
//   mode bit 7 set (bit 6 clear): [type lo][type hi] body… — one message body decoded as that type.
//   else: bit 0 = the proxy has a key (Noise) or not (plaintext); bits 1–6 + 1 = the size of
//   the pieces the stream arrives in. The stream is fed once whole and once in pieces.
// Checks: no trap; the split changes neither the requests that come out, nor the bytes the
// proxy writes, nor whether and why it closes; a closed connection yields nothing more; every
// decode error has a message; answering each request with the proxy's replies never traps; in
// a session, every frame the proxy writes decrypts for its client into a whole message.
import ESPHomeAPI

private let identity = ProxyIdentity(name: "fuzz", friendlyName: "fuzz", macAddress: "AA:BB:CC:DD:EE:FF",
                                     bluetoothMACAddress: "AA:BB:CC:DD:EE:FF",
                                     features: [.passiveScan, .activeConnections, .remoteCaching, .rawAdvertisements])
private let key = try! NoisePresharedKey(base64: "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=")
private let ephemeral = [UInt8](repeating: 0x42, count: 32)

/// A reply of the kind a proxy sends to `request`, built from the request's own values.
private func reply(to request: ClientMessage) -> ServerMessage {
    switch request {
    case let .read(address, handle), let .readDescriptor(address, handle):
        return .readResponse(address: address, handle: handle, data: Array(repeating: 0x5A, count: Int(handle % 600)))
    case let .write(address, handle, _, data), let .writeDescriptor(address, handle, data):
        return data.isEmpty ? .writeResponse(address: address, handle: handle) : .gattError(address: address, handle: handle, error: Int32(data[0]))
    case let .notify(address, handle, enable):
        return enable ? .notifyResponse(address: address, handle: handle) : .notifyData(address: address, handle: handle, data: [1, 2])
    case let .getServices(address):
        let characteristic = ProxyGATTCharacteristic(uuid: ProxyUUID(short: 0x2A37), handle: 3, properties: 0x10,
                                                     descriptors: [ProxyGATTDescriptor(uuid: ProxyUUID(short: 0x2902), handle: 4)])
        return .services(address: address, [ProxyGATTService(uuid: ProxyUUID(high: address, low: ~address), handle: 1, characteristics: [characteristic])],
                         shortUUIDs: address & 1 == 0)
    case let .deviceRequest(address, kind, addressType):
        return .connection(address: address, connected: kind == .connect, mtu: addressType ?? 23, error: Int32(kind.rawValue))
    case let .setConnectionParameters(address, minimum, _, _, _):
        return .connectionParameters(address: address, error: Int32(truncatingIfNeeded: minimum))
    case .subscribeConnectionsFree:
        return .connectionsFree(free: 1, limit: 3, allocated: [1, 2])
    case let .subscribeAdvertisements(flags):
        return .rawAdvertisements([ProxyRawAdvertisement(address: UInt64(flags), rssi: -70, addressType: 1, data: [2, 1, 6])])
    case let .setScannerMode(mode):
        return .scannerState(.running, mode: mode, configuredMode: mode)
    default:
        return .ping
    }
}

private let initiatorEphemeral = [UInt8](repeating: 0x24, count: 32)
/// HelloRequest { client_info = "fuzz"; api_version_major = 1; api_version_minor = 12 }
private let hello = APIFrame(type: 1, payload: [0x0A, 0x04, 0x66, 0x75, 0x7A, 0x7A, 0x10, 0x01, 0x18, 0x0C])

/// The encrypted session's path: messages the fuzzer writes, encrypted by a client that holds
/// the proxy's key.
private func fuzzSession(_ input: inout FuzzInput, sendHello: Bool) {
    var proxy = APIServerConnection(identity: identity, key: key, ephemeralPrivateKey: ephemeral)
    var client = NoiseInitiator(key: key, ephemeralPrivateKey: initiatorEphemeral)
    var requests: [ClientMessage] = []
    func exchange(_ bytes: [UInt8]) {
        requests += proxy.receive(bytes)
        let output = proxy.takeOutput()
        do {
            _ = try client.receive(output)
        } catch {
            invariant(false, "the proxy wrote \(output.count) bytes its client cannot read: \(error)")
        }
    }
    do {
        exchange(try client.start())
        invariant(client.isEstablished, "the handshake with the proxy's own key did not complete")
        if sendHello { exchange(try client.frame(hello)) }
        while !input.isAtEnd, proxy.closeReason == nil {
            exchange(try client.encryptedFrame(input.chunk16(limit: NoiseFraming.maximumDataLength - 16)))
        }
    } catch {
        invariant(false, "the client could not encrypt: \(error)")
    }
    if proxy.closeReason != nil {
        invariant(proxy.receive([0x01, 0x00, 0x00]).isEmpty && proxy.takeOutput().isEmpty, "a closed session went on")
        return
    }
    for request in requests {
        proxy.send(reply(to: request))
        exchange([])
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzESPHomeAPI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let mode = input.u8()
    if mode & 0xC0 == 0xC0 {
        fuzzSession(&input, sendHello: mode & 1 != 0)
        return 0
    }
    if mode & 0x80 != 0 {
        let frame = APIFrame(type: input.u16(), payload: input.rest())
        do {
            _ = reply(to: try ClientMessage(frame)).frame
        } catch {
            invariant(!error.description.isEmpty, "a decode error without a message")
        }
        return 0
    }
    let proxyKey = mode & 1 != 0 ? key : nil
    let pieceSize = Int((mode >> 1) & 0x3F) + 1
    let stream = input.rest()

    var whole = APIServerConnection(identity: identity, key: proxyKey, ephemeralPrivateKey: ephemeral)
    let wholeRequests = whole.receive(stream)
    let wholeOutput = whole.takeOutput()

    var pieces = APIServerConnection(identity: identity, key: proxyKey, ephemeralPrivateKey: ephemeral)
    var piecesRequests: [ClientMessage] = []
    var piecesOutput: [UInt8] = []
    var start = 0
    while start < stream.count {
        let end = min(start + pieceSize, stream.count)
        piecesRequests += pieces.receive(stream[start..<end])
        piecesOutput += pieces.takeOutput()
        start = end
    }
    invariant(wholeRequests == piecesRequests, "pieces of \(pieceSize) changed the requests")
    invariant(wholeOutput == piecesOutput, "pieces of \(pieceSize) changed what the proxy wrote")
    invariant(whole.closeReason == pieces.closeReason, "pieces changed the close: \(String(describing: whole.closeReason)) / \(String(describing: pieces.closeReason))")
    if whole.closeReason != nil {
        invariant(whole.receive(stream).isEmpty && whole.takeOutput().isEmpty, "a closed connection went on")
    }
    for request in wholeRequests { whole.send(reply(to: request)) }
    _ = whole.takeOutput()
    return 0
}
