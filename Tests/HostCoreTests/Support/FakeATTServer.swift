import Testing
import Wire

/// An in-memory ATT server with a GATT database, for tests: it answers every request the way
/// Core Spec v5.4 Vol 3, Part F, §3.4 describes, and can be told to misbehave (errors per
/// handle or opcode, stall, answers that do not advance, wrong Prepare Write echoes).
///
/// It records every PDU it receives and fails the running test when a client sends a second
/// request before the first one's answer was delivered (Vol 3, Part F, §3.3.2).
final class FakeATTServer {
    struct Attribute: Equatable {
        var handle: UInt16
        var type: BluetoothUUID
        var value: [UInt8]
        /// Last handle of the group, for service declarations.
        var groupEnd: UInt16?
    }

    private(set) var attributes: [Attribute]
    /// The server's receive MTU, answered to Exchange MTU.
    var serverRxMTU: UInt16 = 23
    private(set) var mtu: UInt16 = 23

    // Misbehaviour.
    /// Requests touching these handles (Read, Read Blob, Write, Prepare Write) get this error.
    var handleErrors: [UInt16: ATTErrorCode] = [:]
    /// Every request with this opcode gets this error (handle: the request's first handle).
    var opcodeErrors: [UInt8: ATTErrorCode] = [:]
    /// Swallow requests without answering (the client's transaction timer must fire).
    var stall = false
    /// Swallow only requests with these opcodes.
    var stallOpcodes: Set<UInt8> = []
    /// Read By Type always answers with the first matching attribute of the whole database,
    /// whatever range was asked: a peer whose answers never advance.
    var nonAdvancingReadByType = false
    /// Answers a request with these raw bytes instead (nil: answer normally).
    var override: ((ATTPDU) -> [UInt8]?)?
    /// Prepare Write Responses echo one byte changed.
    var corruptPrepareEcho = false
    /// Read Blob keeps answering full PDUs, however far the offset goes.
    var endlessBlobs = false
    /// Answers Read Multiple Variable Request (optional for a server without EATT, Vol 3,
    /// Part G, §4.2); when false it gets Request Not Supported, as from an older server.
    var readMultipleVariableSupported = true
    /// A script in the manner of BlueZ's unit/test-gatt.c: every PDU the client sends must be
    /// the next `expect`, byte for byte, and is answered with `reply` (nil for a command).
    /// While set it replaces the database's answers; a PDU that differs, or comes after the
    /// script's end, fails the test.
    var script: [(expect: [UInt8], reply: [UInt8]?)]?
    /// Entries of `script` not sent yet.
    var scriptLeft: Int { (script?.count ?? 0) - scriptPosition }
    private var scriptPosition = 0

    // What happened.
    private(set) var received: [[UInt8]] = []
    /// Opcodes of the requests received, in order.
    private(set) var requests: [ATTOpcode] = []
    private(set) var writes: [(handle: UInt16, value: [UInt8])] = []
    private(set) var commands: [(handle: UInt16, value: [UInt8])] = []
    private(set) var signedWrites: [ATTSignedWrite] = []
    private(set) var confirmations = 0
    private(set) var errorResponsesReceived: [ATTErrorResponse] = []
    private(set) var mtuResponsesReceived: [UInt16] = []
    private(set) var inFlightViolations = 0
    private var preparedWrites: [(handle: UInt16, offset: Int, value: [UInt8])] = []

    /// PDUs waiting to go to the client.
    private var outbox: [(pdu: [UInt8], isResponse: Bool)] = []
    /// A request was received and its answer not yet handed to the client.
    private(set) var outstanding = false

    init(attributes: [Attribute]) {
        self.attributes = attributes.sorted { $0.handle < $1.handle }
    }

    convenience init(_ build: (inout FakeGATTBuilder) -> Void) {
        var b = FakeGATTBuilder()
        build(&b)
        self.init(attributes: b.attributes)
    }

    /// A new connection to the same peer: the bearer starts over (ATT_MTU 23, nothing in
    /// flight, nothing waiting for the old connection) and, as for a client that is not bonded,
    /// every Client Characteristic Configuration is back to 0 (Vol 3, Part G, §3.3.3.3). The
    /// database and the misbehaviour settings stay.
    func newConnection() {
        mtu = 23
        outstanding = false
        outbox.removeAll()
        preparedWrites.removeAll()
        for i in attributes.indices where attributes[i].type == .clientCharacteristicConfiguration {
            attributes[i].value = [0, 0]
        }
    }

    func replaceAttributes(_ new: [Attribute]) {
        attributes = new.sorted { $0.handle < $1.handle }
    }

    func value(at handle: UInt16) -> [UInt8]? {
        attributes.first { $0.handle == handle }?.value
    }

    func setValue(_ value: [UInt8], at handle: UInt16) {
        if let i = attributes.firstIndex(where: { $0.handle == handle }) { attributes[i].value = value }
    }

    // MARK: - Traffic

    /// The next PDU for the client; handing over a response ends the server's transaction.
    func nextForClient() -> [UInt8]? {
        guard !outbox.isEmpty else { return nil }
        let next = outbox.removeFirst()
        if next.isResponse { outstanding = false }
        return next.pdu
    }

    var hasOutput: Bool { !outbox.isEmpty }

    func notify(handle: UInt16, value: [UInt8]) {
        outbox.append((ATTPDU.handleValueNotification(ATTHandleValue(handle: handle, value: value)).encoded, false))
    }

    func indicate(handle: UInt16, value: [UInt8]) {
        outbox.append((ATTPDU.handleValueIndication(ATTHandleValue(handle: handle, value: value)).encoded, false))
    }

    /// Sends raw bytes to the client as if they answered the request in flight.
    func injectResponse(_ bytes: [UInt8]) {
        outbox.append((bytes, true))
    }

    /// Sends raw bytes to the client that end nothing (server-initiated).
    func inject(_ bytes: [UInt8]) {
        outbox.append((bytes, false))
    }

    /// Takes one PDU from the client.
    func receive(_ bytes: [UInt8]) {
        received.append(bytes)
        if let script {
            guard scriptPosition < script.count else {
                Issue.record("client sent \(Hex.spaced(bytes)) after the script's end")
                return
            }
            let (expect, reply) = script[scriptPosition]
            scriptPosition += 1
            if let first = bytes.first, ATTOpcode(first).kind == .request {
                requests.append(ATTOpcode(first))
                if outstanding {
                    inFlightViolations += 1
                    Issue.record("second ATT request \(ATTOpcode(first)) while one is still outstanding (Vol 3, Part F, §3.3.2)")
                }
                outstanding = true
            }
            if bytes != expect {
                Issue.record("client sent \(Hex.spaced(bytes)), the script expects \(Hex.spaced(expect))")
            }
            if let reply { outbox.append((reply, true)) }
            return
        }
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU.decode(bytes)
        } catch {
            Issue.record("client sent a malformed ATT PDU \(Hex.spaced(bytes)): \(error)")
            return
        }
        switch pdu.opcode.kind {
        case .request:
            requests.append(pdu.opcode)
            if outstanding {
                inFlightViolations += 1
                Issue.record("second ATT request \(pdu.opcode) while one is still outstanding (Vol 3, Part F, §3.3.2)")
            }
            outstanding = true
            if stall || stallOpcodes.contains(pdu.opcode.rawValue) { return }
            if let bytes = override?(pdu) {
                outbox.append((bytes, true))
                return
            }
            respond(answer(pdu))
        case .command:
            if case let .writeCommand(hv) = pdu {
                commands.append((hv.handle, Array(hv.value)))
                setValue(Array(hv.value), at: hv.handle)
            }
            if case let .signedWriteCommand(w) = pdu { signedWrites.append(w) }
        case .confirmation:
            confirmations += 1
        case .response:
            if case let .errorResponse(e) = pdu { errorResponsesReceived.append(e) }
            if case let .exchangeMTUResponse(m) = pdu { mtuResponsesReceived.append(m) }
        default:
            Issue.record("client sent \(pdu.opcode), which a client never sends")
        }
    }

    private func respond(_ pdu: ATTPDU) {
        outbox.append((pdu.encoded, true))
    }

    private func error(_ request: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU {
        .errorResponse(ATTErrorResponse(requestOpcodeInError: request, attributeHandleInError: handle, errorCode: code))
    }

    // MARK: - Answers (Vol 3, Part F, §3.4)

    private func answer(_ pdu: ATTPDU) -> ATTPDU {
        let op = pdu.opcode
        if let code = opcodeErrors[op.rawValue] {
            return error(op, firstHandle(of: pdu), code)
        }
        switch pdu {
        case let .exchangeMTURequest(clientRx):
            mtu = max(23, min(clientRx, serverRxMTU))
            return .exchangeMTUResponse(serverRxMTU: serverRxMTU)

        case let .findInformationRequest(range):
            guard range.isValid else { return error(op, range.startingHandle, .invalidHandle) }
            let found = attributes.filter { $0.handle >= range.startingHandle && $0.handle <= range.endingHandle }
            guard let first = found.first else { return error(op, range.startingHandle, .attributeNotFound) }
            let is16 = first.type.uuid16 != nil
            let stride = 2 + (is16 ? 2 : 16)
            var list: [ATTInformationData] = []
            // Consecutive attributes of one UUID width only (§3.4.3.2).
            for a in found {
                guard (a.type.uuid16 != nil) == is16, 2 + (list.count + 1) * stride <= Int(mtu) else { break }
                list.append(ATTInformationData(handle: a.handle, uuid: a.type))
            }
            return .findInformationResponse(ATTFindInformationResponse(format: is16 ? .uuid16 : .uuid128, informationData: list))

        case let .findByTypeValueRequest(request):
            guard request.range.isValid else { return error(op, request.range.startingHandle, .invalidHandle) }
            var list: [ATTHandlesInformation] = []
            for a in attributes where a.handle >= request.range.startingHandle && a.handle <= request.range.endingHandle
                && a.type == request.attributeType && a.value[...] == request.attributeValue {
                guard 1 + (list.count + 1) * 4 <= Int(mtu) else { break }
                list.append(ATTHandlesInformation(foundAttributeHandle: a.handle, groupEndHandle: a.groupEnd ?? a.handle))
            }
            return list.isEmpty ? error(op, request.range.startingHandle, .attributeNotFound) : .findByTypeValueResponse(list)

        case let .readByTypeRequest(query):
            guard query.range.isValid else { return error(op, query.range.startingHandle, .invalidHandle) }
            if nonAdvancingReadByType, let first = attributes.first(where: { $0.type == query.attributeType }) {
                return .readByTypeResponse([ATTHandleValue(handle: first.handle, value: first.value)])
            }
            let found = attributes.filter {
                $0.handle >= query.range.startingHandle && $0.handle <= query.range.endingHandle && $0.type == query.attributeType
            }
            guard let first = found.first else { return error(op, query.range.startingHandle, .attributeNotFound) }
            if let code = handleErrors[first.handle] { return error(op, first.handle, code) }
            // A value is cut to ATT_MTU − 4 or 253 octets (§3.4.4.2); all entries share a length.
            let length = min(first.value.count, Int(mtu) - 4, 253)
            var list: [ATTHandleValue] = []
            for a in found {
                guard min(a.value.count, Int(mtu) - 4, 253) == length, 2 + (list.count + 1) * (2 + length) <= Int(mtu) else { break }
                list.append(ATTHandleValue(handle: a.handle, value: Array(a.value.prefix(length))))
            }
            return .readByTypeResponse(list)

        case let .readRequest(handle):
            guard let a = attributes.first(where: { $0.handle == handle }) else { return error(op, handle, .invalidHandle) }
            if let code = handleErrors[handle] { return error(op, handle, code) }
            return .readResponse(value: a.value.prefix(Int(mtu) - 1))

        case let .readBlobRequest(handle, offset):
            guard let a = attributes.first(where: { $0.handle == handle }) else { return error(op, handle, .invalidHandle) }
            if let code = handleErrors[handle] { return error(op, handle, code) }
            if endlessBlobs { return .readBlobResponse(partAttributeValue: ArraySlice(repeating: 0xEE, count: Int(mtu) - 1)) }
            guard Int(offset) <= a.value.count else { return error(op, handle, .invalidOffset) }
            return .readBlobResponse(partAttributeValue: a.value[Int(offset)...].prefix(Int(mtu) - 1))

        case let .readMultipleRequest(handles):
            // The values run together, cut at ATT_MTU − 1 (§3.4.4.8).
            var values: [UInt8] = []
            for handle in handles {
                guard let a = attributes.first(where: { $0.handle == handle }) else { return error(op, handle, .invalidHandle) }
                if let code = handleErrors[handle] { return error(op, handle, code) }
                values += a.value
            }
            return .readMultipleResponse(setOfValues: values.prefix(Int(mtu) - 1))

        case let .readMultipleVariableRequest(handles):
            guard readMultipleVariableSupported else { return error(op, 0, .requestNotSupported) }
            // Length Value Tuple List, cut at ATT_MTU − 1 (§3.4.4.12).
            var list: [UInt8] = []
            for handle in handles {
                guard let a = attributes.first(where: { $0.handle == handle }) else { return error(op, handle, .invalidHandle) }
                if let code = handleErrors[handle] { return error(op, handle, code) }
                list += [UInt8(a.value.count & 0xFF), UInt8(a.value.count >> 8)] + a.value
            }
            return .readMultipleVariableResponse(ATTReadMultipleVariableResponse(lengthValueTupleList: list.prefix(Int(mtu) - 1)))

        case let .readByGroupTypeRequest(query):
            guard query.range.isValid else { return error(op, query.range.startingHandle, .invalidHandle) }
            guard query.attributeType == .primaryService || query.attributeType == .secondaryService else {
                return error(op, query.range.startingHandle, .unsupportedGroupType)
            }
            let found = attributes.filter {
                $0.handle >= query.range.startingHandle && $0.handle <= query.range.endingHandle && $0.type == query.attributeType
            }
            guard let first = found.first else { return error(op, query.range.startingHandle, .attributeNotFound) }
            var list: [ATTGroupAttributeData] = []
            for a in found {
                guard a.value.count == first.value.count, 2 + (list.count + 1) * (4 + a.value.count) <= Int(mtu) else { break }
                list.append(ATTGroupAttributeData(attributeHandle: a.handle, endGroupHandle: a.groupEnd ?? a.handle, value: a.value))
            }
            return .readByGroupTypeResponse(list)

        case let .writeRequest(hv):
            guard attributes.contains(where: { $0.handle == hv.handle }) else { return error(op, hv.handle, .invalidHandle) }
            if let code = handleErrors[hv.handle] { return error(op, hv.handle, code) }
            writes.append((hv.handle, Array(hv.value)))
            setValue(Array(hv.value), at: hv.handle)
            return .writeResponse

        case let .prepareWriteRequest(p):
            guard attributes.contains(where: { $0.handle == p.handle }) else { return error(op, p.handle, .invalidHandle) }
            if let code = handleErrors[p.handle] { return error(op, p.handle, code) }
            preparedWrites.append((p.handle, Int(p.valueOffset), Array(p.partAttributeValue)))
            var echo = Array(p.partAttributeValue)
            if corruptPrepareEcho, !echo.isEmpty { echo[0] ^= 0xFF }
            return .prepareWriteResponse(ATTPrepareWrite(handle: p.handle, valueOffset: p.valueOffset, partAttributeValue: echo[...]))

        case let .executeWriteRequest(flags):
            defer { preparedWrites.removeAll() }
            if flags == .immediatelyWriteAllPendingPreparedValues {
                for handle in Set(preparedWrites.map(\.handle)) {
                    var value = value(at: handle) ?? []
                    for part in preparedWrites where part.handle == handle {
                        if value.count < part.offset + part.value.count {
                            value += [UInt8](repeating: 0, count: part.offset + part.value.count - value.count)
                        }
                        value.replaceSubrange(part.offset..<(part.offset + part.value.count), with: part.value)
                    }
                    setValue(value, at: handle)
                    writes.append((handle, value))
                }
            }
            return .executeWriteResponse

        default:
            return error(op, 0, .requestNotSupported)
        }
    }

    private func firstHandle(of pdu: ATTPDU) -> UInt16 {
        switch pdu {
        case let .findInformationRequest(r): return r.startingHandle
        case let .findByTypeValueRequest(r): return r.range.startingHandle
        case let .readByTypeRequest(q), let .readByGroupTypeRequest(q): return q.range.startingHandle
        case let .readRequest(h), let .readBlobRequest(h, _): return h
        case let .readMultipleRequest(hs), let .readMultipleVariableRequest(hs): return hs.first ?? 0
        case let .writeRequest(hv): return hv.handle
        case let .prepareWriteRequest(p): return p.handle
        default: return 0
        }
    }
}

/// Lays out a GATT database attribute by attribute, handles in order (Vol 3, Part G, §3).
struct FakeGATTBuilder {
    private(set) var attributes: [FakeATTServer.Attribute] = []
    private(set) var next: UInt16 = 1

    /// Leaves a gap: the next attribute gets `handle`.
    mutating func skip(to handle: UInt16) {
        next = max(next, handle)
    }

    private mutating func add(_ type: BluetoothUUID, _ value: [UInt8]) -> UInt16 {
        let h = next
        attributes.append(.init(handle: h, type: type, value: value, groupEnd: nil))
        next += 1
        return h
    }

    /// A service declaration and its contents; returns its start handle.
    @discardableResult
    mutating func service(_ uuid: BluetoothUUID, primary: Bool = true, _ body: (inout FakeGATTBuilder) -> Void) -> UInt16 {
        let start = add(primary ? .primaryService : .secondaryService, uuid.attBytes)
        let index = attributes.count - 1
        body(&self)
        attributes[index].groupEnd = next - 1
        return start
    }

    /// A descriptor, or any other attribute, at the next handle.
    mutating func descriptor(_ type: BluetoothUUID, _ value: [UInt8] = []) {
        _ = add(type, value)
    }

    /// Include declaration (§3.2).
    mutating func include(start: UInt16, end: UInt16, uuid: BluetoothUUID) {
        _ = add(.include, IncludeDeclaration(includedServiceAttributeHandle: start, endGroupHandle: end, serviceUUID: uuid).encoded)
    }

    /// A characteristic declaration, its value, and its descriptors (a CCCD when `cccd`);
    /// returns the value handle.
    @discardableResult
    mutating func characteristic(_ uuid: BluetoothUUID, _ properties: CharacteristicProperties, value: [UInt8] = [],
                                 cccd: Bool = false, descriptors: [(BluetoothUUID, [UInt8])] = []) -> UInt16 {
        let declaration = next
        let valueHandle = declaration + 1
        _ = add(.characteristic, CharacteristicDeclaration(properties: properties, valueHandle: valueHandle, uuid: uuid).encoded)
        _ = add(uuid, value)
        if cccd { _ = add(.clientCharacteristicConfiguration, [0, 0]) }
        for (type, v) in descriptors { _ = add(type, v) }
        return valueHandle
    }
}
