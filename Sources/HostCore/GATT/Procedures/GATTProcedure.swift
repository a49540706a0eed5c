import Wire

/// What a GATT procedure wants the session to do next.
enum GATTStep {
    /// Send this ATT request and hand its response (or Error Response) back to `receive`.
    case request(ATTPDU)
    /// Send this ATT command; the procedure is then complete (a command has no response).
    case command(ATTPDU)
    /// The procedure completed; `result` holds what it found.
    case done
    case failed(HostError)
}

/// One GATT procedure (Core Spec v5.4 Vol 3, Part G, §4) as a small state machine over the ATT
/// bearer. It never sends by itself: it answers each step with the next request, so the session
/// keeps exactly one request in flight and owns the transaction timer.
///
/// Procedures are classes because the composite discovery holds and drives sub-procedures by
/// reference; they live for one operation, never on the notification path.
protocol GATTProcedure: AnyObject {
    /// The first request, or an immediate end (nothing to ask).
    func start(mtu: UInt16) -> GATTStep
    /// The response that matched the last request, or the Error Response naming it.
    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep
    /// What the operation returns once the procedure ended with `.done`.
    var result: GATTResult { get }
}

extension GATTStep {
    /// The usual answer to an Error Response: the operation fails with the peer's code.
    static func failed(_ error: ATTErrorResponse) -> GATTStep {
        .failed(.att(error: error.errorCode.rawValue, request: error.requestOpcodeInError.rawValue,
                     handle: error.attributeHandleInError))
    }

    /// A response of another kind than the request asked for. The bearer only passes on the
    /// matching response, so this is a safety net, not an expected path.
    static func unexpected(_ response: ATTPDU, in procedure: String) -> GATTStep {
        .failed(.protocolViolation("\(procedure): unexpected \(response.name)"))
    }
}

/// Walks a discovery range request by request and refuses answers that would stall it.
///
/// Discovery continues from the last handle found + 1 (Vol 3, Part G, §4.4.1, §4.6.1, §4.7.1).
/// A hostile or broken peer could answer with a handle before the requested start, outside the
/// range, or out of order; accepting it could make the procedure ask the same question forever.
/// Every accepted entry lies inside the range and after the previous one, so each request
/// moves the start forward by at least one handle: a walk ends after at most 65 535 requests.
struct HandleWalk {
    /// Last handle of the whole range being walked.
    let end: UInt16
    /// Starting Handle of the current request.
    private(set) var start: UInt16
    /// Last handle covered by the entries accepted from the current response.
    private var covered: UInt16?
    /// The range has been walked to its end.
    private(set) var isFinished: Bool

    init(start: UInt16, end: UInt16) {
        self.start = start
        self.end = end
        isFinished = start == 0 || start > end
    }

    var range: ATTHandleRange { ATTHandleRange(startingHandle: start, endingHandle: end) }

    /// Checks one entry covering `first...last` (a group, or one handle when equal).
    mutating func accept(_ first: UInt16, through last: UInt16, in pdu: String) -> HostError? {
        let floor = covered.map { Int($0) + 1 } ?? Int(start)
        if Int(first) < floor || first > end {
            let why = Int(first) < Int(start) || first > end
                ? "outside the requested range \(Self.text(start))-\(Self.text(end))"
                : "not after the previous entry \(Self.text(UInt16(truncatingIfNeeded: floor - 1)))"
            return .protocolViolation("\(pdu): handle \(Self.text(first)) is \(why)")
        }
        if last < first || last > end {
            return .protocolViolation("\(pdu): group \(Self.text(first))-\(Self.text(last)) ends outside the requested range \(Self.text(start))-\(Self.text(end))")
        }
        covered = last
        return nil
    }

    /// Moves to the next request after a response whose entries were all accepted.
    /// - Parameter room: how many handles another entry needs; when fewer remain the walk
    ///   ends without asking (a characteristic needs its declaration and its value).
    /// - Returns: an error when the response carried no entry at all.
    mutating func advance(in pdu: String, room: Int = 1) -> HostError? {
        guard let last = covered else {
            return .protocolViolation("\(pdu) without any entry")
        }
        covered = nil
        if Int(end) - Int(last) < room {
            isFinished = true
        } else {
            start = last + 1
        }
        return nil
    }

    static func text(_ h: UInt16) -> String { Hex.number(h, width: 4) }
}

/// Decodes a declaration value found in a discovery response, turning a WireError into the
/// protocol violation it is.
func decodeGATTDeclaration<T: WireCodable>(_ type: T.Type, _ value: ArraySlice<UInt8>, at handle: UInt16,
                                       what: String) -> Result<T, HostError> {
    var reader = ByteReader(value)
    do {
        let v = try T(decoding: &reader)
        if !reader.isAtEnd {
            return .failure(.protocolViolation("\(what) at \(HandleWalk.text(handle)): \(reader.count) byte(s) too many"))
        }
        return .success(v)
    } catch {
        return .failure(.protocolViolation("\(what) at \(HandleWalk.text(handle)): \(error)"))
    }
}
