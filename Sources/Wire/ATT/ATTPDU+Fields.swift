extension ATTPDU: FieldDescribing {
    /// One phrase after the PDU name (which `name` gives; the summary does not repeat it),
    /// e.g. `handle 0x002a value 06 48`.
    public var summary: String {
        var t = TextBuffer(capacity: 96)
        appendSummary(to: &t)
        return t.string
    }

    /// `summary`, written into a buffer (the dissector shows one for every ATT packet).
    public func appendSummary(to t: inout TextBuffer) {
        switch self {
        case let .errorResponse(e):
            t.append(e.requestOpcodeInError.name)
            t.append(" handle ")
            L2CAPText.hex16(e.attributeHandleInError, into: &t)
            t.append(": ")
            L2CAPText.named(e.errorCode.name, e.errorCode.rawValue, into: &t)
        case let .exchangeMTURequest(mtu):
            t.append("client rx mtu ")
            t.appendDecimal(Int(mtu))
        case let .exchangeMTUResponse(mtu):
            t.append("server rx mtu ")
            t.appendDecimal(Int(mtu))
        case let .findInformationRequest(range):
            t.append(range.text)
        case let .findInformationResponse(response):
            t.append(Self.count(response.informationData.count, "entry", "entries") + " (\(response.format.name))")
        case let .findByTypeValueRequest(request):
            t.append("\(request.range.text) type \(request.attributeType.string) value \(L2CAPText.short(request.attributeValue))")
        case let .findByTypeValueResponse(list):
            t.append(Self.count(list.count, "handle range", "handle ranges"))
        case let .readByTypeRequest(query), let .readByGroupTypeRequest(query):
            t.append("\(query.range.text) type \(query.attributeType.string)")
        case let .readByTypeResponse(list):
            t.append(Self.count(list.count, "entry", "entries") + " of \(2 + (list.first?.value.count ?? 0)) bytes")
        case let .readByGroupTypeResponse(list):
            t.append(Self.count(list.count, "entry", "entries") + " of \(4 + (list.first?.value.count ?? 0)) bytes")
        case let .readRequest(handle):
            t.append("handle ")
            L2CAPText.hex16(handle, into: &t)
        case let .readResponse(value), let .readBlobResponse(value), let .readMultipleResponse(value):
            t.append("value ")
            L2CAPText.short(value, into: &t)
        case let .readBlobRequest(handle, offset):
            t.append("handle \(L2CAPText.hex16(handle)) offset \(offset)")
        case let .readMultipleRequest(handles), let .readMultipleVariableRequest(handles):
            t.append("handles " + handles.map(L2CAPText.hex16).joined(separator: " "))
        case let .readMultipleVariableResponse(response):
            t.append(Self.count(response.values.count, "value", "values"))
        case let .writeRequest(hv), let .writeCommand(hv), let .handleValueNotification(hv), let .handleValueIndication(hv):
            t.append("handle ")
            L2CAPText.hex16(hv.handle, into: &t)
            t.append(" value ")
            L2CAPText.short(hv.value, into: &t)
        case let .signedWriteCommand(s):
            t.append("handle \(L2CAPText.hex16(s.handle)) value \(L2CAPText.short(s.value)) signed")
        case let .prepareWriteRequest(p), let .prepareWriteResponse(p):
            t.append("handle \(L2CAPText.hex16(p.handle)) offset \(p.valueOffset) value \(L2CAPText.short(p.partAttributeValue))")
        case let .executeWriteRequest(flags):
            t.append(flags.name)
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            break
        case let .multipleHandleValueNotification(list):
            t.append(list.map { "\(L2CAPText.hex16($0.handle)): \(L2CAPText.short($0.value, limit: 8))" }.joined(separator: ", "))
        case let .unknown(opcode, parameters):
            t.append("opcode \(L2CAPText.hex8(opcode.rawValue)) parameters \(L2CAPText.short(parameters))")
        }
    }

    public func describeFields(into fields: inout FieldList) {
        switch self {
        case let .errorResponse(e):
            fields.add("Request opcode", e.requestOpcodeInError.description)
            fields.add("Handle", L2CAPText.hex16(e.attributeHandleInError))
            fields.add("Error", e.errorCode.description)
        case let .exchangeMTURequest(mtu):
            fields.add("Client RX MTU", String(mtu))
        case let .exchangeMTUResponse(mtu):
            fields.add("Server RX MTU", String(mtu))
        case let .findInformationRequest(range):
            Self.add(range, to: &fields)
        case let .findInformationResponse(response):
            fields.add("Format", "\(L2CAPText.hex8(response.format.rawValue)) (\(response.format.name))")
            for entry in response.informationData {
                fields.add("Handle " + L2CAPText.hex16(entry.handle), entry.uuid.attText)
            }
        case let .findByTypeValueRequest(request):
            Self.add(request.range, to: &fields)
            fields.add("Attribute type", request.attributeType.attText)
            fields.add("Attribute value", L2CAPText.bytes(request.attributeValue))
        case let .findByTypeValueResponse(list):
            for entry in list {
                fields.add("Handle range", L2CAPText.hex16(entry.foundAttributeHandle) + "-" + L2CAPText.hex16(entry.groupEndHandle))
            }
        case let .readByTypeRequest(query):
            Self.add(query.range, to: &fields)
            fields.add("Attribute type", query.attributeType.attText)
        case let .readByGroupTypeRequest(query):
            Self.add(query.range, to: &fields)
            fields.add("Attribute group type", query.attributeType.attText)
        case let .readByTypeResponse(list):
            fields.add("Attribute data length", String(2 + (list.first?.value.count ?? 0)))
            for entry in list {
                fields.add("Handle " + L2CAPText.hex16(entry.handle), L2CAPText.bytes(entry.value))
            }
        case let .readByGroupTypeResponse(list):
            fields.add("Attribute data length", String(4 + (list.first?.value.count ?? 0)))
            for entry in list {
                let range = L2CAPText.hex16(entry.attributeHandle) + "-" + L2CAPText.hex16(entry.endGroupHandle)
                let value: String
                if (entry.value.count == 2 || entry.value.count == 16), let uuid = BluetoothUUID(littleEndian: entry.value) {
                    value = "UUID " + uuid.attText
                } else {
                    value = L2CAPText.bytes(entry.value)
                }
                fields.add("Handle range " + range, value)
            }
        case let .readRequest(handle):
            fields.add("Handle", L2CAPText.hex16(handle))
        case let .readResponse(value):
            fields.add("Value", L2CAPText.bytes(value))
        case let .readBlobRequest(handle, offset):
            fields.add("Handle", L2CAPText.hex16(handle))
            fields.add("Offset", String(offset))
        case let .readBlobResponse(value):
            fields.add("Part value", L2CAPText.bytes(value))
        case let .readMultipleRequest(handles), let .readMultipleVariableRequest(handles):
            for h in handles { fields.add("Handle", L2CAPText.hex16(h)) }
        case let .readMultipleResponse(values):
            fields.add("Set of values", L2CAPText.bytes(values))
        case let .readMultipleVariableResponse(response):
            for entry in response.values {
                fields.add("Length", String(entry.length) + (entry.isTruncated ? " (truncated to \(entry.value.count))" : ""))
                fields.add("Value", L2CAPText.bytes(entry.value))
            }
        case let .writeRequest(hv), let .writeCommand(hv), let .handleValueNotification(hv), let .handleValueIndication(hv):
            fields.add("Handle") { L2CAPText.hex16(hv.handle, into: &$0) }
            fields.add("Value") { L2CAPText.bytes(hv.value, into: &$0) }
        case let .signedWriteCommand(s):
            fields.add("Handle", L2CAPText.hex16(s.handle))
            fields.add("Value", L2CAPText.bytes(s.value))
            fields.add("Authentication signature", L2CAPText.bytes(s.authenticationSignature))
        case let .prepareWriteRequest(p), let .prepareWriteResponse(p):
            fields.add("Handle", L2CAPText.hex16(p.handle))
            fields.add("Offset", String(p.valueOffset))
            fields.add("Part value", L2CAPText.bytes(p.partAttributeValue))
        case let .executeWriteRequest(flags):
            fields.add("Flags", flags.description)
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            break
        case let .multipleHandleValueNotification(list):
            for entry in list {
                fields.nested("Handle", L2CAPText.hex16(entry.handle)) { inner in
                    inner.add("Length", String(entry.value.count))
                    inner.add("Value", L2CAPText.bytes(entry.value))
                }
            }
        case let .unknown(_, parameters):
            fields.add("Parameters", L2CAPText.bytes(parameters))
        }
    }

    private static func add(_ range: ATTHandleRange, to fields: inout FieldList) {
        fields.add("Handle range", range.text)
    }

    private static func count(_ n: Int, _ one: String, _ many: String) -> String {
        "\(n) " + (n == 1 ? one : many)
    }
}
