import Wire

/// The client's side of the server's prepare queue (Core Spec v5.4 Vol 3, Part F, §3.4.6): the
/// values go out as parts of at most ATT_MTU − 5 octets, one Prepare Write Request at a time;
/// each response must echo its request exactly (Part G, §4.9.5); one Execute Write Request
/// then writes everything. A refused part or a wrong echo cancels the whole queue instead
/// (Execute Write, flags 0x00) and the write fails with that reason once the cancel is
/// answered.
///
/// The queue at the server is the client's, shared by every characteristic, so it is emptied
/// after any refused part, also the first: the next write then starts from a known-empty queue
/// (BlueZ's client does the same, and its PTS-derived cases expect the cancel).
///
/// Shared by Write Long Characteristic Values (one value) and Reliable Writes (several).
struct PreparedWriteQueue {
    let writes: [(handle: UInt16, value: [UInt8])]
    /// The write being queued, and how many of its octets are queued and echoed.
    private var write = 0
    private var offset = 0
    /// The part on the wire: which write, which octets.
    private var pending: (write: Int, octets: Range<Int>)?
    /// Set once a cancel is on its way; the write ends with this error after its answer.
    private var cancelling: HostError?
    private var executing = false

    init(writes: [(handle: UInt16, value: [UInt8])]) {
        self.writes = writes
    }

    /// Why these writes cannot be queued: a Value Offset is 16 bits (§3.4.6.1).
    var refusal: HostError? {
        if writes.isEmpty { return .invalidState("nothing to write") }
        if let w = writes.first(where: { $0.value.count > Int(UInt16.max) }) {
            return .invalidState("a value of \(w.value.count) bytes for handle \(HandleWalk.text(w.handle)) is longer than a Value Offset can address")
        }
        return nil
    }

    /// The next Prepare Write Request, or the Execute Write Request once every part is queued.
    mutating func nextRequest(mtu: UInt16) -> GATTStep {
        guard write < writes.count else {
            executing = true
            return .request(.executeWriteRequest(flags: .immediatelyWriteAllPendingPreparedValues))
        }
        let (handle, value) = writes[write]
        // Opcode, handle and offset take 5 octets (§3.4.6.1).
        let octets = offset..<min(value.count, offset + max(1, Int(mtu) - 5))
        pending = (write, octets)
        return .request(.prepareWriteRequest(ATTPrepareWrite(handle: handle, valueOffset: UInt16(truncatingIfNeeded: offset),
                                                             partAttributeValue: value[octets])))
    }

    mutating func receive(_ response: ATTPDU, mtu: UInt16, procedure: String) -> GATTStep {
        if let error = cancelling {
            // Whatever answers the cancel, the write has failed for the reason already known.
            return .failed(error)
        }
        switch response {
        case let .prepareWriteResponse(echo) where !executing:
            guard let (w, octets) = pending else { return .unexpected(response, in: procedure) }
            let (handle, value) = writes[w]
            guard echo.handle == handle, Int(echo.valueOffset) == octets.lowerBound,
                  echo.partAttributeValue.elementsEqual(value[octets]) else {
                return cancel(.protocolViolation("Prepare Write Response for handle \(HandleWalk.text(echo.handle)) offset \(echo.valueOffset) does not echo the request (handle \(HandleWalk.text(handle)) offset \(octets.lowerBound), \(octets.count) bytes); prepared writes cancelled"))
            }
            pending = nil
            offset = octets.upperBound
            if offset >= value.count {
                write += 1
                offset = 0
            }
            return nextRequest(mtu: mtu)
        case .executeWriteResponse where executing:
            return .done
        case let .errorResponse(e) where e.requestOpcodeInError == .prepareWriteRequest:
            // Parts already queued at the server would stay there: clear them first.
            return cancel(.att(error: e.errorCode.rawValue, request: e.requestOpcodeInError.rawValue,
                               handle: e.attributeHandleInError))
        case let .errorResponse(e):
            return .failed(e)
        default:
            return .unexpected(response, in: procedure)
        }
    }

    private mutating func cancel(_ error: HostError) -> GATTStep {
        cancelling = error
        return .request(.executeWriteRequest(flags: .cancelAllPreparedWrites))
    }
}
