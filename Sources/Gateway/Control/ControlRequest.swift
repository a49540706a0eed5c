import JSON
import Wire

/// One request of the local control protocol: a JSON object on one line of the control socket
/// (Docs/gateway.md, "The control socket"). Read with libyaml like every JSON the gateway takes.
///
///     {"id":1,"op":"devices"}
///     {"id":2,"op":"adapters"}
///     {"id":3,"op":"status"}
///     {"id":4,"op":"read","device":"heart","characteristic":"2A19"}
///     {"id":5,"op":"write","device":"heart","characteristic":"2A39","value":"01","response":true}
///     {"id":6,"op":"subscribe","device":"heart","characteristic":"2A37"}
///     {"id":7,"op":"unsubscribe","device":"heart","characteristic":"2A37"}
public struct ControlRequest: Sendable, Equatable {
    public enum Operation: String, Sendable, CaseIterable {
        case devices, adapters, status, read, write, subscribe, unsubscribe

        /// Whether it names a device and a characteristic.
        var needsTarget: Bool {
            switch self {
            case .devices, .adapters, .status: return false
            case .read, .write, .subscribe, .unsubscribe: return true
            }
        }
    }

    /// The caller's id, echoed in the answer: its JSON text (a number stays a number).
    public var id: String?
    public var operation: Operation
    public var device: String?
    public var target: GatewayCommand.Target?
    public var value: [UInt8] = []
    public var withResponse = true

    public init(id: String? = nil, operation: Operation, device: String? = nil, target: GatewayCommand.Target? = nil) {
        self.id = id
        self.operation = operation
        self.device = device
        self.target = target
    }

    /// Parses one line; a bad request is an error whose text goes into the answer (with the id
    /// when it could be read).
    public static func parse(_ line: String) -> Result<ControlRequest, ControlRequestError> {
        let node: YAMLNode
        do { node = try YAMLDocument.parse(line) } catch {
            return .failure(ControlRequestError(id: nil, message: "not a JSON object: \(error.message)"))
        }
        guard case .mapping(let pairs, _) = node else {
            return .failure(ControlRequestError(id: nil, message: "a request is a JSON object, one per line"))
        }
        var id: String?
        var fields: [String: YAMLNode] = [:]
        for p in pairs {
            guard let key = p.key.scalarText else {
                return .failure(ControlRequestError(id: nil, message: "keys must be strings"))
            }
            if key == "id" {
                guard case .scalar(let text, let quoted, _) = p.value else {
                    return .failure(ControlRequestError(id: nil, message: "\"id\" must be a string or a number"))
                }
                id = quoted || Int(text) == nil ? jsonString(text) : text
            } else {
                fields[key] = p.value
            }
        }
        func fail(_ m: String) -> Result<ControlRequest, ControlRequestError> { .failure(ControlRequestError(id: id, message: m)) }
        guard let opText = fields.removeValue(forKey: "op")?.scalarText else {
            return fail("no \"op\" (one of " + Operation.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        guard let op = Operation(rawValue: opText) else {
            return fail("unknown op '\(opText)' (one of " + Operation.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        var r = ControlRequest(id: id, operation: op)
        if op.needsTarget {
            guard let device = fields.removeValue(forKey: "device")?.scalarText, !device.isEmpty else {
                return fail("\(opText) needs \"device\" (its id, as \"devices\" lists it)")
            }
            r.device = device
            guard let c = fields.removeValue(forKey: "characteristic")?.scalarText else {
                return fail("\(opText) needs \"characteristic\" (a UUID such as 2A19, or a handle 0x0031)")
            }
            guard let target = GatewayCommand.parseTarget(c) else {
                return fail("'\(c)' is neither a characteristic UUID (2A19, 128-bit form) nor a handle (0x0031)")
            }
            r.target = target
        }
        if op == .write {
            guard let v = fields.removeValue(forKey: "value")?.scalarText else { return fail("write needs \"value\" (hex octets)") }
            guard let bytes = GatewayCommand.parseHex(v) else { return fail("\"value\" is not hex octets: '\(v)'") }
            r.value = bytes
            if let node = fields.removeValue(forKey: "response") {
                guard let b = node.scalarText.flatMap(ConfigurationValue.boolean) else { return fail("\"response\" must be true or false") }
                r.withResponse = b
            }
        }
        if let extra = fields.keys.sorted().first {
            return fail("unknown key \"\(extra)\" for \(opText)")
        }
        return .success(r)
    }

    static func jsonString(_ s: String) -> String {
        var out = ""
        JSONObject.appendQuoted(s, to: &out)
        return out
    }
}

/// A request that could not be understood.
public struct ControlRequestError: Error, Sendable, Equatable {
    public var id: String?
    public var message: String
}

/// The answers and events of the control protocol, one JSON object a line.
public enum ControlReply {
    /// `{"id":…,"ok":true,…fields}`.
    public static func success(id: String?, _ fill: (inout JSONObject) -> Void = { _ in }) -> String {
        var o = JSONObject()
        if let id { o.add("id", raw: id) }
        o.add("ok", true)
        fill(&o)
        return o.finished
    }

    /// `{"id":…,"ok":false,"error":"…"}`.
    public static func failure(id: String?, _ message: String) -> String {
        var o = JSONObject()
        if let id { o.add("id", raw: id) }
        o.add("ok", false)
        o.add("error", message)
        return o.finished
    }
}
