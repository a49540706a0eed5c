import Wire

/// Read Multiple Variable Length Characteristic Values (Core Spec v5.4 Vol 3, Part G, §4.8.5):
/// ATT_READ_MULTIPLE_VARIABLE_REQ with two or more handles; each value comes back with its
/// length (Part F, §3.4.4.11–12), so values of any length can be told apart.
///
/// The server cuts the Length Value Tuple List at ATT_MTU − 1 octets, possibly inside a value:
/// a value cut short is completed with Read Blob from the octets received, and handles the list
/// did not reach are asked again (a lone one with a plain read, since the request needs two).
/// Each request answers at least one handle or the procedure fails, so it ends after at most as
/// many requests as handles plus the blobs of 512-octet values.
///
/// A server has to support this request only if it supports EATT (Part G, §4.2: the server
/// sets EATT Supported in Server Supported Features, 0x2B3A); any other may answer Request Not
/// Supported, or nothing at all (`ReadMultipleVariablePolicy`). With `.ifServerSupportsEATT`
/// that characteristic is read first (Read Using Characteristic UUID over the whole database,
/// as the Database Hash is) and the request is only sent when the bit is set. When the server
/// does not support it, `fallback` reads the handles one by one (Read, Read Blob while needed);
/// without it the operation fails, naming why.
final class ReadMultipleVariableProcedure: GATTProcedure {
    /// EATT Supported, bit 0 of Server Supported Features (Vol 3, Part G, §7.4).
    static let eattSupported: UInt8 = 0x01

    let handles: [UInt16]
    let when: ReadMultipleVariablePolicy
    let fallback: Bool
    /// Values per index of `handles`, nil until answered.
    private var values: [[UInt8]?]
    /// Index of the first handle not answered yet.
    private var next = 0
    private enum Phase {
        /// Reading Server Supported Features.
        case features
        case multiple(Range<Int>)
        /// Completing the value at this index, which the server announced `length` octets long.
        case blob(index: Int, length: Int)
        /// One handle read on its own: the last one left, or all of them after a fallback.
        case single(index: Int, ReadProcedure)
    }
    private var phase: Phase = .multiple(0..<0)
    /// The server answered Request Not Supported and the handles were read one by one.
    private(set) var fellBack = false

    init(handles: [UInt16], when: ReadMultipleVariablePolicy, fallback: Bool) {
        self.handles = handles
        self.when = when
        self.fallback = fallback
        values = Array(repeating: nil, count: handles.count)
    }

    func start(mtu: UInt16) -> GATTStep {
        if handles.count < 2 {
            return .failed(ReadMultipleProcedure.refusal(handles, mtu: mtu, request: "Read Multiple Variable Request")
                ?? .invalidState("no handles"))
        }
        if when == .ifServerSupportsEATT {
            phase = .features
            return .request(.readByTypeRequest(ATTAttributeTypeQuery(range: .all, attributeType: .serverSupportedFeatures)))
        }
        return nextStep(mtu: mtu)
    }

    private func nextStep(mtu: UInt16) -> GATTStep {
        let left = handles.count - next
        if left == 0 { return .done }
        if left == 1 || fellBack {
            let read = ReadProcedure(handle: handles[next], long: true)
            phase = .single(index: next, read)
            return read.start(mtu: mtu)
        }
        let batch = next..<(next + min(left, ReadMultipleProcedure.maximumHandles(mtu: mtu)))
        phase = .multiple(batch)
        return .request(.readMultipleVariableRequest(handles: Array(handles[batch])))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        switch phase {
        case .features:
            return receiveFeatures(response, mtu: mtu)
        case let .multiple(batch):
            return receiveMultiple(response, batch: batch, mtu: mtu)
        case let .blob(index, length):
            return receiveBlob(response, index: index, length: length, mtu: mtu)
        case let .single(index, read):
            let step = read.receive(response, mtu: mtu)
            guard case .done = step else { return step }
            values[index] = read.value
            next = index + 1
            return nextStep(mtu: mtu)
        }
    }

    /// Server Supported Features, or its absence (Attribute Not Found, or any other answer that
    /// is not the value): only EATT Supported makes the request one the server must answer.
    private func receiveFeatures(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        if case let .readByTypeResponse(list) = response, let first = list.first?.value.first,
           first & Self.eattSupported != 0 {
            return nextStep(mtu: mtu)
        }
        guard fallback else {
            return .failed(.unsupportedByPeer("it does not set EATT Supported in Server Supported Features (0x2B3A), so it need not support Read Multiple Variable Length (Core Spec v5.4 Vol 3, Part G, §4.2), and nothing was sent; read the handles one by one, with Read Multiple, or send the request anyway"))
        }
        fellBack = true
        return nextStep(mtu: mtu)
    }

    private func receiveMultiple(_ response: ATTPDU, batch: Range<Int>, mtu: UInt16) -> GATTStep {
        let pdu = "Read Multiple Variable Response"
        switch response {
        case let .readMultipleVariableResponse(list):
            let tuples = list.values
            guard !tuples.isEmpty else {
                return .failed(.protocolViolation("\(pdu) without any value for \(batch.count) handles"))
            }
            guard tuples.count <= batch.count else {
                return .failed(.protocolViolation("\(pdu) with \(tuples.count) values for \(batch.count) handles"))
            }
            for (offset, tuple) in tuples.enumerated() {
                let index = batch.lowerBound + offset
                guard Int(tuple.length) <= ReadProcedure.maximumValueLength else {
                    return .failed(.protocolViolation("\(pdu): value of handle \(HandleWalk.text(handles[index])) said to be \(tuple.length) octets (at most \(ReadProcedure.maximumValueLength))"))
                }
                values[index] = Array(tuple.value)
            }
            let last = batch.lowerBound + tuples.count - 1
            next = last + 1
            if let cut = tuples.last, cut.isTruncated {
                return blob(index: last, length: Int(cut.length))
            }
            return nextStep(mtu: mtu)
        case let .errorResponse(e):
            if fallback, e.errorCode == .requestNotSupported, !fellBack {
                fellBack = true
                return nextStep(mtu: mtu)
            }
            return .failed(e)
        default:
            return .unexpected(response, in: "Read Multiple Variable Length Characteristic Values")
        }
    }

    /// Asks for the rest of a value cut short, from the octets already received.
    private func blob(index: Int, length: Int) -> GATTStep {
        let have = values[index]?.count ?? 0
        phase = .blob(index: index, length: length)
        return .request(.readBlobRequest(handle: handles[index], valueOffset: UInt16(truncatingIfNeeded: have)))
    }

    private func receiveBlob(_ response: ATTPDU, index: Int, length: Int, mtu: UInt16) -> GATTStep {
        switch response {
        case let .readBlobResponse(part):
            let value = (values[index] ?? []) + part
            values[index] = value
            // Done when the announced length (at most 512) is reached or the server has no
            // more to give; every other answer adds an octet, so this ends.
            if value.count >= length || part.isEmpty { return nextStep(mtu: mtu) }
            return blob(index: index, length: length)
        case let .errorResponse(e):
            // At the value's end a server may answer Attribute Not Long or Invalid Offset.
            if e.errorCode == .attributeNotLong || e.errorCode == .invalidOffset { return nextStep(mtu: mtu) }
            return .failed(e)
        default:
            return .unexpected(response, in: "Read Multiple Variable Length Characteristic Values")
        }
    }

    var result: GATTResult {
        .values(handles.indices.map { (handles[$0], values[$0] ?? []) })
    }
}
