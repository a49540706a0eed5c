import Wire

/// A command received on `<device>/read/<characteristic>` or `<device>/write/<characteristic>`.
///
/// The characteristic level is a UUID (`2A19`, the 128-bit form) or a value handle written
/// `0x0031`. Payloads: empty, a JSON object `{"id": "r1", "value": "0100", "response": true}`,
/// or bare text — for a read, the request id; for a write, the value in hex (spaces and colons
/// allowed). The reply (`GatewayReply`) echoes the id, so a caller can match answers.
public struct GatewayCommand: Sendable, Hashable {
    public enum Operation: String, Sendable, Hashable {
        case read
        case write
    }

    public enum Target: Sendable, Hashable, CustomStringConvertible {
        case uuid(BluetoothUUID)
        case handle(UInt16)

        public var description: String {
            switch self {
            case .uuid(let u): return u.string
            case .handle(let h): return Hex.number(h, width: 4)
            }
        }
    }

    public var device: String
    public var operation: Operation
    public var target: Target
    /// The caller's request id, echoed in the reply.
    public var requestID: String?
    /// For a write: the octets.
    public var value: [UInt8]
    /// For a write: Write Request (true, the default) or Write Command (false).
    public var withResponse: Bool

    public init(device: String, operation: Operation, target: Target, requestID: String? = nil,
                value: [UInt8] = [], withResponse: Bool = true) {
        self.device = device
        self.operation = operation
        self.target = target
        self.requestID = requestID
        self.value = value
        self.withResponse = withResponse
    }

    /// Parses a message on a command topic; nil when the topic is not a command topic of
    /// `topics`. A bad payload is an error whose text goes into the reply, with the request id
    /// when it could be read.
    public static func parse(topic: String, payload: [UInt8], topics: GatewayTopics) -> Result<GatewayCommand, GatewayCommandError>? {
        guard let (device, op, level) = topics.parseCommand(topic) else { return nil }
        guard let target = parseTarget(level) else {
            return .failure(GatewayCommandError(device: device, operation: op, requestID: nil,
                                                message: "'\(level)' is neither a characteristic UUID (2A19, 128-bit form) nor a handle (0x0031)"))
        }
        var command = GatewayCommand(device: device, operation: op, target: target)
        let text = String(decoding: payload, as: UTF8.self).trimmingSpaces
        func fail(_ message: String) -> Result<GatewayCommand, GatewayCommandError> {
            .failure(GatewayCommandError(device: device, operation: op, requestID: command.requestID, message: message))
        }
        if text.hasPrefix("{") {
            let node: YAMLNode
            do { node = try YAMLDocument.parse(text) } catch { return fail("payload is not a JSON object: \(error.message)") }
            guard case .mapping(let pairs, _) = node else { return fail("payload is not a JSON object") }
            var valueText: String?
            for p in pairs {
                guard let key = p.key.scalarText else { return fail("payload keys must be strings") }
                switch key {
                case "id":
                    guard let s = p.value.scalarText else { return fail("\"id\" must be a string or number") }
                    command.requestID = s
                case "value":
                    guard op == .write else { return fail("a read takes no \"value\"") }
                    guard let s = p.value.scalarText else { return fail("\"value\" must be a hex string") }
                    valueText = s
                case "response":
                    guard op == .write else { return fail("a read takes no \"response\"") }
                    guard let b = p.value.scalarText.flatMap(ConfigurationValue.boolean) else {
                        return fail("\"response\" must be true or false")
                    }
                    command.withResponse = b
                default:
                    return fail("unknown key \"\(key)\" (known: id\(op == .write ? ", value, response" : ""))")
                }
            }
            if op == .write {
                guard let v = valueText else { return fail("a write needs \"value\" (hex octets)") }
                guard let bytes = parseHex(v) else { return fail("\"value\" is not hex octets: '\(v)'") }
                command.value = bytes
            }
        } else if op == .read {
            command.requestID = text.isEmpty ? nil : text
        } else {
            guard !text.isEmpty, let bytes = parseHex(text) else {
                return fail(text.isEmpty ? "a write needs a value: hex octets, or a JSON object with \"value\"" : "'\(text)' is not hex octets")
            }
            command.value = bytes
        }
        return .success(command)
    }

    /// `2A19`, the 128-bit form, or `0x0031` for a handle.
    public static func parseTarget(_ text: String) -> Target? {
        if (text.hasPrefix("0x") || text.hasPrefix("0X")), text.count <= 6, let h = UInt16(text.dropFirst(2), radix: 16), h != 0 {
            return .handle(h)
        }
        return BluetoothUUID(string: text).map { .uuid($0) }
    }

    /// Hex octets with optional spaces, colons or dashes between them ("01 00", "01:00", "0100").
    static func parseHex(_ text: String) -> [UInt8]? {
        let digits = text.filter { $0 != " " && $0 != ":" && $0 != "-" }
        guard !digits.isEmpty, digits.count % 2 == 0, digits.count <= 1024 else { return nil }
        var out: [UInt8] = []
        var i = digits.startIndex
        while i < digits.endIndex {
            let j = digits.index(i, offsetBy: 2)
            guard let b = UInt8(digits[i..<j], radix: 16) else { return nil }
            out.append(b)
            i = j
        }
        return out
    }
}

/// A command that could not be understood, for the reply.
public struct GatewayCommandError: Error, Sendable, Hashable {
    public var device: String
    public var operation: GatewayCommand.Operation
    public var requestID: String?
    public var message: String
}

extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
