import Wire

/// Find Included Services (Core Spec v5.4 Vol 3, Part G, §4.5.1): Read By Type, type 0x2802.
/// An include declaration carries the included service's UUID only when it is a 16-bit one
/// (§3.2); a 128-bit UUID is then read from the included service declaration itself with a
/// Read Request.
///
/// Include definitions sit between the service declaration and the first characteristic
/// declaration (§3.1). Discovery therefore finds the characteristics first and searches only
/// that gap, which is usually empty: no request at all for most services.
final class FindIncludedServicesProcedure: GATTProcedure {
    private var walk: HandleWalk
    private(set) var included: [GATTIncludedService] = []
    /// Index into `included` of the entry whose UUID is being read.
    private var reading: Int?
    /// Entries of `included` before this one have had their UUID read when they lacked one.
    private var checked = 0

    /// Searches `service` up to just before `firstCharacteristic` (its whole range when nil).
    init(service: GATTService, firstCharacteristic: UInt16? = nil) {
        let end = firstCharacteristic.map { min($0 &- 1, service.endHandle) } ?? service.endHandle
        if service.startHandle < end {
            walk = HandleWalk(start: service.startHandle + 1, end: end)
        } else {
            walk = HandleWalk(start: 1, end: 0)
        }
    }

    /// Searches `range` as it is (Find Included Services over a range of the caller's choosing).
    init(range: ClosedRange<UInt16>) {
        walk = HandleWalk(start: range.lowerBound, end: range.upperBound)
    }

    /// Whether there is no room for an include declaration at all.
    var isEmpty: Bool { walk.isFinished }

    func start(mtu: UInt16) -> GATTStep { nextRequest() }

    /// The 128-bit UUIDs of the includes just found are read before the walk goes on (the
    /// order of BlueZ's client and of its PTS-derived cases), then the next Read By Type.
    private func nextRequest() -> GATTStep {
        while checked < included.count {
            let next = checked
            checked += 1
            if included[next].uuid == nil {
                reading = next
                return .request(.readRequest(handle: included[next].startHandle))
            }
        }
        if !walk.isFinished {
            return .request(.readByTypeRequest(ATTAttributeTypeQuery(range: walk.range, attributeType: .include)))
        }
        return .done
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        if let index = reading {
            reading = nil
            // Reading a 128-bit service UUID. A peer that refuses or answers oddly leaves it
            // unknown rather than failing discovery of the whole database.
            if case let .readResponse(value) = response, value.count == 16 || value.count == 2 {
                included[index].uuid = BluetoothUUID(littleEndian: value)
            }
            return nextRequest()
        }
        switch response {
        case let .readByTypeResponse(list):
            let pdu = "Read By Type Response (Include)"
            for entry in list {
                if let e = walk.accept(entry.handle, through: entry.handle, in: pdu) { return .failed(e) }
                switch decodeGATTDeclaration(IncludeDeclaration.self, entry.value, at: entry.handle, what: "Include declaration") {
                case let .failure(e):
                    return .failed(e)
                case let .success(decl):
                    guard decl.includedServiceAttributeHandle != 0,
                          decl.includedServiceAttributeHandle <= decl.endGroupHandle else {
                        return .failed(.protocolViolation("Include declaration at \(HandleWalk.text(entry.handle)): service range \(HandleWalk.text(decl.includedServiceAttributeHandle))-\(HandleWalk.text(decl.endGroupHandle))"))
                    }
                    included.append(GATTIncludedService(declarationHandle: entry.handle,
                                                        startHandle: decl.includedServiceAttributeHandle,
                                                        endHandle: decl.endGroupHandle, uuid: decl.serviceUUID))
                }
            }
            if let e = walk.advance(in: pdu) { return .failed(e) }
            return nextRequest()
        case let .errorResponse(e):
            guard e.errorCode == .attributeNotFound else { return .failed(e) }
            walk = HandleWalk(start: 1, end: 0)
            return nextRequest()
        default:
            return .unexpected(response, in: "Find Included Services")
        }
    }

    var result: GATTResult { .includedServices(included) }
}
