// libFuzzer harness: one link's GATT client (HostCore.GATTClient) against a peer whose every
// answer is the input, for the procedures and response parsers of issue 12 above all: Read
// Multiple and Read Multiple Variable Length (the Length Value Tuple List, cut values, Read
// Blob completion, the fallback to single reads), Reliable and long writes (Prepare Write
// echoes, cancels), Signed Write, and discovery over any handle range; the older procedures
// run too, so they interleave.
//
// Input: the first byte picks the client's plan (MTU to exchange, a cached database or none),
// then steps [op] operands…:
//   op low nibble 0: the application asks for an operation (high nibble: which; operands from
//     the input); 1: the peer answers the request in flight with its response opcode and the
//     given parameters; 2: an Error Response to it with a given code and handle; 3: a
//     well-formed answer made for the request (an echo of a Prepare Write, possibly changed; a
//     Length Value Tuple List; a Read By Type list; Find Information entries…); 4: any PDU;
//     5: time passes (so the 30 s transaction timeout is reachable); 6: the link is encrypted
//     or not (signed writes are refused then); 7: the host's answer to a request held for
//     security (raised or not); 8…15: a notification or indication.
// Checks, besides no trap and no ASan report:
//   - every PDU the client sends decodes and fits the ATT_MTU (Vol 3, Part F, §3.2.8);
//   - a request only goes out when the previous one was answered, timed out or never existed
//     (one request in flight, §3.3.2);
//   - every operation completes exactly once, and all of them once the link goes down;
//   - progress is bounded: the client sends no more requests than operations asked plus peer
//     PDUs received plus the plan's (so no procedure loops on its own).
import Wire
@testable import HostCore

private final class Peer: GATTClientOutput {
    var client: GATTClient!
    /// The last request the client sent and whether it still waits for its answer.
    var lastRequest: ATTPDU?
    var requestsSent = 0
    /// Peer PDUs and time steps since the last request: a new request needs at least one (the
    /// answer or timeout that freed the bearer), else two were in flight.
    var inputsSinceRequest = 1
    var completions: [OperationID: Int] = [:]
    var asked: [OperationID] = []

    func sendATT(_ pdu: [UInt8], on link: LinkID) {
        guard let decoded = try? ATTPDU.decode(pdu) else {
            fatalError("the client sent an undecodable PDU [\(Hex.spaced(pdu))]")
        }
        invariant(pdu.count <= Int(client.mtu), "\(decoded.name) of \(pdu.count) bytes above ATT_MTU \(client.mtu)")
        if decoded.opcode.kind == .request {
            invariant(inputsSinceRequest > 0, "\(decoded.name) sent while \(lastRequest?.name ?? "a request") was still in flight")
            inputsSinceRequest = 0
            requestsSent += 1
            lastRequest = decoded
        }
    }

    func deliver(_ event: HostEvent) {
        switch event {
        case let .operationCompleted(id, result):
            completions[id, default: 0] += 1
            invariant(completions[id] == 1, "operation \(id) completed \(completions[id] ?? 0) times")
            if case let .failure(e) = result { _ = e.description }
        case let .warning(w):
            _ = w.description
        default:
            break
        }
    }

    func clientStateChanged(_ link: LinkID) {}
    func clientFailed(_ link: LinkID, error: HostError, at now: HostTime) { _ = error.description }

    /// A request refused for security waits for `securityFinished`, which a later step gives.
    var securityPending = false

    func securityNeeded(_ link: LinkID, error: ATTErrorCode) {
        invariant(!securityPending, "security asked for twice without an answer")
        securityPending = true
    }
}

private let heartRate = BluetoothUUID(0x180D)

/// A small database, so subscriptions have characteristics to find.
private let cached = GATTDatabase(services: [
    GATTService(uuid: heartRate, startHandle: 0x0010, endHandle: 0x0016, characteristics: [
        GATTCharacteristic(uuid: BluetoothUUID(0x2A37), declarationHandle: 0x0011, valueHandle: 0x0012, properties: 0x10,
                           endHandle: 0x0013, descriptors: [GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: 0x0013)]),
        GATTCharacteristic(uuid: BluetoothUUID(0x2A38), declarationHandle: 0x0014, valueHandle: 0x0015, properties: 0x02,
                           endHandle: 0x0016),
    ]),
])

private func range(_ input: inout FuzzInput) -> ClosedRange<UInt16> {
    let a = input.u16(), b = input.u16()
    return min(a, b)...max(a, b)
}

private func handles(_ input: inout FuzzInput) -> [UInt16] {
    (0..<Int(input.u8() % 40)).map { _ in input.u16() }
}

private func operation(_ which: UInt8, _ input: inout FuzzInput) -> GATTOperation {
    switch which {
    case 0: return .readMultiple(handles: handles(&input))
    case 1:
        let flags = input.u8()
        return .readMultipleVariable(handles: handles(&input), when: flags & 2 == 0 ? .always : .ifServerSupportsEATT, fallback: flags & 1 == 0)
    case 2:
        let n = Int(input.u8() % 6)
        return .reliableWrite((0..<n).map { _ in (handle: input.u16(), value: input.chunk16(limit: 600)) })
    case 3:
        let handle = input.u16()
        let value = input.chunk()
        return .signedWrite(ATTSignedWrite(handle: handle, value: value[...], authenticationSignature: input.take(Int(input.u8() % 16))[...]))
    case 4: return .findIncludedServices(range: range(&input))
    case 5: return .discoverCharacteristics(range: range(&input), uuid: input.u8() & 1 == 0 ? nil : BluetoothUUID(input.u16()))
    case 6: return .discoverDescriptors(range: range(&input))
    case 7: return .writeLong(handle: input.u16(), value: input.chunk16(limit: 600))
    case 8: return .readLong(handle: input.u16())
    case 9: return .readByType(BluetoothUUID(input.u16()), range: range(&input))
    case 10: return .discoverAll
    case 11: return .exchangeMTU(input.u16())
    case 12: return .subscribe(valueHandle: [0x0012, 0x0015, input.u16()][Int(input.u8() % 3)], mode: .automatic)
    case 13: return .unsubscribe(valueHandle: 0x0012)
    case 14: return .write(handle: input.u16(), value: input.chunk())
    default: return .writeWithoutResponse(handle: input.u16(), value: input.chunk())
    }
}

/// A well-formed answer to `request`, its contents from the input.
private func answer(to request: ATTPDU, mtu: UInt16, _ input: inout FuzzInput) -> [UInt8] {
    let room = Int(mtu) - 1
    switch request {
    case let .prepareWriteRequest(p):
        var echo = Array(p.partAttributeValue)
        let change = input.u8()
        if change & 0x0F == 0, !echo.isEmpty { echo[Int(change >> 4) % echo.count] ^= 0x01 }
        let offset = change & 0xF0 == 0x10 ? p.valueOffset &+ 1 : p.valueOffset
        return ATTPDU.prepareWriteResponse(ATTPrepareWrite(handle: p.handle, valueOffset: offset, partAttributeValue: echo[...])).encoded
    case .executeWriteRequest:
        return ATTPDU.executeWriteResponse.encoded
    case .writeRequest:
        return ATTPDU.writeResponse.encoded
    case let .readMultipleVariableRequest(handles):
        // Tuples whose length may claim more than is there, cut at ATT_MTU − 1.
        var list: [UInt8] = []
        for _ in 0..<min(handles.count + Int(input.u8() % 3), 40) {
            let length = Int(input.u8()) | (input.u8() & 0x80 == 0 ? 0 : 0x100)
            let value = input.take(min(length, Int(input.u8())))
            list += [UInt8(length & 0xFF), UInt8(length >> 8)] + value
        }
        return [ATTOpcode.readMultipleVariableResponse.rawValue] + list.prefix(room)
    case .readMultipleRequest, .readRequest, .readBlobRequest:
        let opcode = request.opcode.responseOpcode?.rawValue ?? 0x0B
        return [opcode] + input.take(min(Int(input.u8()), room))
    case let .readByTypeRequest(q):
        // Entries of one length with handles from the start of the range.
        let length = max(2, Int(input.u8() % 24))
        var h = q.range.startingHandle
        var list: [ATTHandleValue] = []
        for _ in 0..<Int(input.u8() % 6) {
            list.append(ATTHandleValue(handle: h, value: input.take(length - 2)))
            h &+= UInt16(input.u8() % 4)
        }
        return ATTPDU.readByTypeResponse(list).encoded
    case let .findInformationRequest(r):
        var h = r.startingHandle
        var data: [ATTInformationData] = []
        for _ in 0..<Int(input.u8() % 6) {
            data.append(ATTInformationData(handle: h, uuid: BluetoothUUID(input.u16())))
            h &+= UInt16(input.u8() % 3)
        }
        return ATTPDU.findInformationResponse(ATTFindInformationResponse(informationData: data)).encoded
    case .exchangeMTURequest:
        return ATTPDU.exchangeMTUResponse(serverRxMTU: input.u16()).encoded
    default:
        let opcode = request.opcode.responseOpcode?.rawValue ?? 0x01
        return [opcode] + input.chunk()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGATTClient(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let setup = input.u8()
    var plan = LinkPlan()
    plan.mtu = [nil, 23, 100, 517][Int(setup & 3)]
    plan.discover = false
    if setup & 4 != 0 { plan.cachedDatabase = cached }
    if setup & 8 != 0 { plan.subscriptions = [Subscription(characteristic: BluetoothUUID(0x2A37))] }

    let peer = Peer()
    let link = LinkID(rawValue: 1)
    let client = GATTClient(link: link, plan: plan, output: peer)
    peer.client = client
    var now: HostTime = 1_000_000
    var nextOperation: UInt64 = 1
    var fed = 0
    client.linkUp(at: now)

    func feed(_ pdu: [UInt8]) {
        fed += 1
        peer.inputsSinceRequest += 1
        client.receive(pdu[...], at: now)
    }

    var steps = 0
    while !input.isAtEnd, steps < 2_000 {
        steps += 1
        let op = input.u8()
        let waiting = client.bearer.pendingRequest != nil ? peer.lastRequest : nil
        switch op & 0x0F {
        case 0:
            let id = OperationID(rawValue: nextOperation)
            nextOperation += 1
            peer.asked.append(id)
            client.perform(operation(op >> 4, &input), id: id, at: now)
        case 1:
            let opcode = waiting?.opcode.responseOpcode?.rawValue ?? input.u8()
            feed([opcode] + input.chunk())
        case 2:
            let request = waiting?.opcode.rawValue ?? input.u8()
            feed(ATTPDU.errorResponse(ATTErrorResponse(requestOpcodeInError: ATTOpcode(request), attributeHandleInError: input.u16(),
                                                       errorCode: ATTErrorCode(input.u8()))).encoded)
        case 3:
            guard let request = waiting else { continue }
            feed(answer(to: request, mtu: client.mtu, &input))
        case 4:
            feed(input.chunk())
        case 5:
            now &+= HostDuration.milliseconds(UInt64(input.u8()) * 250)
            peer.inputsSinceRequest += 1
            client.advanceTime(to: now)
        case 6:
            client.linkEncrypted = input.u8() & 1 == 1
        case 7:
            // The host's answer to a security refusal: raised (the request goes again) or not.
            guard peer.securityPending else { continue }
            peer.securityPending = false
            peer.inputsSinceRequest += 1
            client.securityFinished(raised: input.u8() & 1 == 1, at: now)
        default:
            let kind: UInt8 = op & 0x10 == 0 ? 0x1B : 0x1D
            feed([kind] + [0x12, 0x00] + input.chunk())
        }
        // Bounded progress: each request answers an operation, a peer PDU or the plan.
        invariant(peer.requestsSent <= peer.asked.count + fed + 8,
                  "\(peer.requestsSent) requests for \(peer.asked.count) operations and \(fed) peer PDUs")
    }
    client.linkDown(reason: .connectionTimeout)
    for id in peer.asked {
        invariant(peer.completions[id] == 1, "operation \(id) never completed")
    }
    return 0
}
