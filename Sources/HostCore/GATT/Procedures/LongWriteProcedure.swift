import Wire

/// Write Long Characteristic Values (Core Spec v5.4 Vol 3, Part G, §4.9.4): Prepare Write in
/// chunks of ATT_MTU − 5 bytes, then Execute Write. Each Prepare Write Response must echo the
/// request (as Reliable Writes require, §4.9.5); on a mismatch the queued parts are cancelled
/// with Execute Write (flags 0x00) and the write fails.
final class LongWriteProcedure: GATTProcedure {
    let handle: UInt16
    let value: [UInt8]
    /// Bytes of `value` sent so far.
    private var offset = 0
    private var lastChunk: Range<Int> = 0..<0
    /// Set once a cancel is on its way; the write ends with this error after the answer.
    private var cancelling: HostError?
    private var executing = false

    init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }

    func start(mtu: UInt16) -> GATTStep {
        guard value.count <= Int(UInt16.max) else {
            return .failed(.invalidState("a value of \(value.count) bytes is longer than a Value Offset can address"))
        }
        // Nothing to queue: a plain write of the empty value.
        if value.isEmpty {
            return .request(.writeRequest(ATTHandleValue(handle: handle, value: value[...])))
        }
        return nextPrepare(mtu: mtu)
    }

    private func nextPrepare(mtu: UInt16) -> GATTStep {
        guard offset < value.count else {
            executing = true
            return .request(.executeWriteRequest(flags: .immediatelyWriteAllPendingPreparedValues))
        }
        // Opcode, handle and offset take 5 bytes (Vol 3, Part F, §3.4.6.1).
        let chunk = max(1, Int(mtu) - 5)
        lastChunk = offset..<min(value.count, offset + chunk)
        return .request(.prepareWriteRequest(ATTPrepareWrite(handle: handle, valueOffset: UInt16(truncatingIfNeeded: offset),
                                                             partAttributeValue: value[lastChunk])))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        if let error = cancelling {
            // Whatever answers the cancel, the write has failed for the reason already known.
            return .failed(error)
        }
        switch response {
        case let .prepareWriteResponse(echo):
            guard echo.handle == handle, Int(echo.valueOffset) == lastChunk.lowerBound,
                  echo.partAttributeValue.elementsEqual(value[lastChunk]) else {
                cancelling = .protocolViolation("Prepare Write Response for handle \(HandleWalk.text(echo.handle)) offset \(echo.valueOffset) does not echo the request (handle \(HandleWalk.text(handle)) offset \(lastChunk.lowerBound), \(lastChunk.count) bytes); prepared writes cancelled")
                return .request(.executeWriteRequest(flags: .cancelAllPreparedWrites))
            }
            offset = lastChunk.upperBound
            return nextPrepare(mtu: mtu)
        case .executeWriteResponse where executing:
            return .done
        case .writeResponse where value.isEmpty:
            return .done
        case let .errorResponse(e):
            // Parts already queued at the server would stay there: clear them first.
            if e.requestOpcodeInError == .prepareWriteRequest, offset > 0 {
                cancelling = .att(error: e.errorCode.rawValue, request: e.requestOpcodeInError.rawValue,
                                  handle: e.attributeHandleInError)
                return .request(.executeWriteRequest(flags: .cancelAllPreparedWrites))
            }
            return .failed(e)
        default:
            return .unexpected(response, in: "Write Long Characteristic Values")
        }
    }

    var result: GATTResult { .done }
}
