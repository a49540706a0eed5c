import Wire

/// Discover All Characteristics of a Service (Core Spec v5.4 Vol 3, Part G, §4.6.1): Read By
/// Type, type 0x2803, over the service's range. Each characteristic ends just before the next
/// declaration, the last one at the service's end (§3.3), which bounds its descriptors.
///
/// Over a range of the caller's choosing it is the same walk, and with a UUID it is Discover
/// Characteristics by UUID (§4.6.2), which asks the same questions and keeps only the matches:
/// each characteristic's end still comes from the next declaration of any UUID.
final class DiscoverCharacteristicsProcedure: GATTProcedure {
    private var walk: HandleWalk
    private let serviceEnd: UInt16
    private let uuid: BluetoothUUID?
    private var declarations: [(handle: UInt16, declaration: CharacteristicDeclaration)] = []
    private(set) var characteristics: [GATTCharacteristic] = []

    convenience init(service: GATTService) {
        self.init(range: service.startHandle...service.endHandle, uuid: nil)
    }

    /// Characteristics declared in `range`; the last one is taken to end at the range's end.
    init(range: ClosedRange<UInt16>, uuid: BluetoothUUID?) {
        walk = HandleWalk(start: range.lowerBound, end: range.upperBound)
        serviceEnd = range.upperBound
        self.uuid = uuid
    }

    func start(mtu: UInt16) -> GATTStep { nextRequest() }

    private func nextRequest() -> GATTStep {
        if walk.isFinished { return finish() }
        return .request(.readByTypeRequest(ATTAttributeTypeQuery(range: walk.range, attributeType: .characteristic)))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        switch response {
        case let .readByTypeResponse(list):
            let pdu = "Read By Type Response (Characteristic)"
            for entry in list {
                let decl: CharacteristicDeclaration
                switch decodeGATTDeclaration(CharacteristicDeclaration.self, entry.value, at: entry.handle, what: "Characteristic declaration") {
                case let .failure(e): return .failed(e)
                case let .success(d): decl = d
                }
                // The declaration's own handle first: one outside the range is named as such.
                if let e = walk.accept(entry.handle, through: entry.handle, in: pdu) { return .failed(e) }
                // The value attribute follows its declaration inside the service (§3.3); a
                // declaration placed before the previous value is caught in `finish`.
                guard decl.valueHandle > entry.handle, decl.valueHandle <= walk.end else {
                    return .failed(.protocolViolation("Characteristic declaration at \(HandleWalk.text(entry.handle)): value handle \(HandleWalk.text(decl.valueHandle)) does not follow it inside \(HandleWalk.text(walk.start))-\(HandleWalk.text(walk.end))"))
                }
                declarations.append((entry.handle, decl))
            }
            // The next request starts one past the last declaration, the last Attribute Handle
            // of the response (§4.6.1). Another characteristic needs two handles (declaration
            // and value) after the last value (§3.3.1): with less room left nothing is asked.
            if let e = walk.advance(in: pdu) { return .failed(e) }
            if let last = declarations.last, Int(walk.end) - Int(last.declaration.valueHandle) < 2 {
                walk = HandleWalk(start: 1, end: 0)
            }
            return nextRequest()
        case let .errorResponse(e):
            guard e.errorCode == .attributeNotFound else { return .failed(e) }
            return finish()
        default:
            return .unexpected(response, in: "characteristic discovery")
        }
    }

    private func finish() -> GATTStep {
        characteristics.removeAll(keepingCapacity: true)
        characteristics.reserveCapacity(declarations.count)
        for (i, d) in declarations.enumerated() {
            let end = i + 1 < declarations.count ? declarations[i + 1].handle - 1 : serviceEnd
            guard d.declaration.valueHandle <= end else {
                return .failed(.protocolViolation("Characteristic declaration at \(HandleWalk.text(d.handle)): value handle \(HandleWalk.text(d.declaration.valueHandle)) lies past the next declaration"))
            }
            if let uuid, d.declaration.uuid != uuid { continue }
            characteristics.append(GATTCharacteristic(uuid: d.declaration.uuid, declarationHandle: d.handle,
                                                      valueHandle: d.declaration.valueHandle,
                                                      properties: d.declaration.properties.rawValue, endHandle: end))
        }
        return .done
    }

    var result: GATTResult { .characteristics(characteristics) }
}
