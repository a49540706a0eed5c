import Wire

/// The keys of one `devices` entry, shared by the file (a mapping) and `--device` (a list of
/// KEY=VALUE pairs separated by commas, list values joined with `+`).
public enum DeviceRuleKeys {
    public struct Key: Sendable {
        public let name: String
        public let valueName: String
        public let help: String
        public let isList: Bool
        let apply: @Sendable (inout DeviceRule, ConfigurationInput) -> String?
    }

    public static let all: [Key] = [
        Key(name: "name", valueName: "NAME", help: "topic level and Home Assistant name", isList: false) { r, v in
            GatewaySettings.scalar(v, deviceName) { r.name = $0 }
        },
        Key(name: "address", valueName: "AA:BB:CC:DD:EE:FF[/public|/random]", help: "the device's address", isList: false) { r, v in
            GatewaySettings.scalar(v, ConfigurationValue.parseAddress) { r.address = $0.0; r.addressType = $0.1 }
        },
        Key(name: "service", valueName: "UUID", help: "a service the device advertises (180D, FCD2…)", isList: false) { r, v in
            GatewaySettings.scalar(v, ConfigurationValue.parseUUID) { r.service = $0 }
        },
        Key(name: "name_pattern", valueName: "PATTERN", help: "its advertised name, shell pattern (Thingy*)", isList: false) { r, v in
            GatewaySettings.scalar(v, ConfigurationValue.parsePattern) { r.namePattern = $0 }
        },
        Key(name: "subscribe", valueName: "UUID…", help: "characteristics to subscribe to (default: every one rtstack decodes)", isList: true) { r, v in
            GatewaySettings.list(v, ConfigurationValue.parseUUID) { r.subscribe = $0 }
        },
        Key(name: "read", valueName: "UUID…", help: "characteristics read after each connection", isList: true) { r, v in
            GatewaySettings.list(v, ConfigurationValue.parseUUID) { r.read = $0 }
        },
        Key(name: "connect", valueName: "true|false", help: "false: only decode its advertisements", isList: false) { r, v in
            GatewaySettings.scalar(v, ConfigurationValue.parseBoolean) { r.connect = $0 }
        },
        Key(name: "bthome_key", valueName: "32 HEX DIGITS", help: "BTHome bind key for encrypted advertisements", isList: false) { r, v in
            GatewaySettings.scalar(v, ConfigurationValue.parseKey) { r.bthomeKey = $0 }
        },
        Key(name: "max", valueName: "N", help: "devices a service or pattern entry takes (default 1)", isList: false) { r, v in
            GatewaySettings.scalar(v, { ConfigurationValue.parseInteger($0, in: 1...1000) }) { r.maxDevices = $0 }
        },
    ]

    public static func key(_ name: String) -> Key? { all.first { $0.name == name } }

    static func deviceName(_ text: String) -> Result<String, ValueProblem> {
        if GatewayTopics.reservedDeviceIDs.contains(text) {
            return .failure("'\(text)' is a word of the topic tree; pick another name (not \(GatewayTopics.reservedDeviceIDs.sorted().joined(separator: ", ")))")
        }
        return ConfigurationValue.parseIdentifier(text)
    }

    /// Problems of a complete entry (no criterion, an address rule with `max`).
    static func problems(of r: DeviceRule) -> [String] {
        var out: [String] = []
        if !r.hasCriterion { out.append("names no device: give address, service or name_pattern") }
        if r.address != nil && r.maxDevices > 1 { out.append("an entry with an address takes one device; drop max") }
        return out
    }

    /// `--device name=heart,address=C1:00:00:00:00:01/random,subscribe=2A37+2A19`.
    static func parseCommandLine(_ text: String) -> Result<DeviceRule, ValueProblem> {
        var rule = DeviceRule()
        for part in text.split(separator: ",", omittingEmptySubsequences: true) {
            guard let eq = part.firstIndex(of: "=") else { return .failure("'\(String(part))' is not KEY=VALUE") }
            let k = String(part[..<eq])
            let v = String(part[part.index(after: eq)...])
            guard let key = key(k) else {
                return .failure(ValueProblem("unknown device key '\(k)'" + Suggestion.hint(k, among: all.map(\.name))))
            }
            let input: ConfigurationInput = key.isList ? .list(v.split(separator: "+").map(String.init)) : .scalar(v)
            if let m = key.apply(&rule, input) { return .failure(ValueProblem(k + ": " + m)) }
        }
        if let p = problems(of: rule).first { return .failure(ValueProblem("'\(text)' " + p)) }
        return .success(rule)
    }
}

/// "; did you mean 'username'?" for a key two edits or fewer away from a known one.
enum Suggestion {
    static func hint(_ word: String, among known: [String]) -> String {
        let best = known.map { ($0, distance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (k, d) = best, d <= 2 else { return "; known: " + known.joined(separator: ", ") }
        return "; did you mean '\(k)'?"
    }

    /// Levenshtein distance over characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        var row = Array(0...y.count)
        for i in 1...x.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: y.count, by: 1) {
                let keep = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
                previous = keep
            }
        }
        return row[y.count]
    }
}
