/// Reads the configuration file (YAML, through libyaml) and the command line into one
/// `GatewayConfiguration`, checking every value and naming the line or the option of each
/// problem. The file is read first; command-line options override its settings, `--adapter`
/// and `--passive` replace its lists, and `--device` entries are added to its devices.
public enum GatewayConfigurationReader {
    /// The file's top-level keys.
    static let sections = ["gateway", "adapters", "backend", "mqtt", "control", "esphome", "devices", "passive"]

    /// Parses the file's text; the configuration so far and every problem found.
    public static func parse(yaml text: String, into configuration: inout GatewayConfiguration) -> [ConfigurationError] {
        let root: YAMLNode
        do {
            root = try YAMLDocument.parse(text)
        } catch {
            return [ConfigurationError(.file(line: error.mark?.line ?? 1), "", "not valid YAML: " + error.message)]
        }
        var errors: [ConfigurationError] = []
        guard case .mapping(let top, _) = root else {
            return [ConfigurationError(.file(line: root.mark.line), "", "the file must be a mapping (gateway:, adapters:, mqtt:, devices: …), not \(root.kindName)")]
        }
        for (key, value, line) in keys(of: top, path: "", known: sections, errors: &errors) {
            switch key {
            case "gateway", "mqtt", "control", "esphome":
                guard case .mapping(let pairs, _) = value else {
                    errors.append(ConfigurationError(.file(line: line), key, "wants a mapping, got \(value.kindName)"))
                    continue
                }
                let known = GatewaySettings.all.filter { $0.path.hasPrefix(key + ".") }.map { String($0.path.dropFirst(key.count + 1)) }
                for (sub, v, subLine) in self.keys(of: pairs, path: key, known: known, errors: &errors) {
                    apply(GatewaySettings.setting(path: key + "." + sub), v, line: subLine, path: key + "." + sub,
                          to: &configuration, errors: &errors)
                }
            case "adapters", "backend", "passive":
                apply(GatewaySettings.setting(path: key), value, line: line, path: key, to: &configuration, errors: &errors)
            case "devices":
                guard case .sequence(let items, _) = value else {
                    errors.append(ConfigurationError(.file(line: line), key, "wants a list of devices, got \(value.kindName)"))
                    continue
                }
                for (i, item) in items.enumerated() {
                    if let rule = device(item, path: "devices[\(i)]", errors: &errors) { configuration.devices.append(rule) }
                }
            default:
                break
            }
        }
        return errors
    }

    /// Applies command-line option values (as `ParsedArguments` keeps them: option name without
    /// dashes → values in order) and flags.
    public static func apply(commandLine values: [String: [String]], into configuration: inout GatewayConfiguration) -> [ConfigurationError] {
        var errors: [ConfigurationError] = []
        for (option, words) in values.sorted(by: { $0.key < $1.key }) {
            if option == "device" {
                for w in words {
                    switch DeviceRuleKeys.parseCommandLine(w) {
                    case .success(let r): configuration.devices.append(r)
                    case .failure(let m): errors.append(ConfigurationError(.option("device"), "", m.message))
                    }
                }
                continue
            }
            guard let setting = GatewaySettings.setting(option: option) else { continue }
            let input: ConfigurationInput = setting.isList
                ? .list(words.flatMap { option == "adapter" ? Self.splitAdapters($0) : $0.split(separator: ",").map(String.init) })
                : .scalar(words.last ?? "")
            if let m = setting.apply(&configuration, input) { errors.append(ConfigurationError(.option(option), setting.path, m)) }
        }
        return errors
    }

    /// The file (when given) then the command line, then the checks that need both; throws
    /// every problem at once.
    public static func read(yaml text: String?, commandLine values: [String: [String]]) throws(ConfigurationErrors) -> GatewayConfiguration {
        var c = GatewayConfiguration()
        var errors: [ConfigurationError] = []
        if let t = text { errors += parse(yaml: t, into: &c) }
        errors += apply(commandLine: values, into: &c)
        if errors.isEmpty { errors += c.problems }
        if !errors.isEmpty { throw ConfigurationErrors(errors) }
        return c
    }

    /// `hci0,tcp:h:1,serial:/dev/ttyUSB0@1000000,noflow` → three adapters: a piece that does not
    /// start an adapter (`noflow`) belongs to the one before it.
    static func splitAdapters(_ text: String) -> [String] {
        var out: [String] = []
        for piece in text.split(separator: ",").map(String.init) {
            let starts = piece.hasPrefix("hci") || piece.hasPrefix("tcp:") || piece.hasPrefix("serial:")
                || piece.hasPrefix("replay:") || piece.hasPrefix("/")
            if !starts, let last = out.popLast() { out.append(last + "," + piece) } else { out.append(piece) }
        }
        return out
    }

    // MARK: Pieces

    /// The string keys of a mapping with their values and lines; unknown, duplicate and
    /// non-string keys are reported.
    static func keys(of pairs: [YAMLPair], path: String, known: [String], errors: inout [ConfigurationError]) -> [(String, YAMLNode, Int)] {
        var out: [(String, YAMLNode, Int)] = []
        var seen: [String: Int] = [:]
        for p in pairs {
            let line = p.key.mark.line
            guard let key = p.key.scalarText else {
                errors.append(ConfigurationError(.file(line: line), path, "keys must be names, not \(p.key.kindName)"))
                continue
            }
            let full = path.isEmpty ? key : path + "." + key
            guard known.contains(key) else {
                errors.append(ConfigurationError(.file(line: line), path, "unknown key '\(key)'" + Suggestion.hint(key, among: known)))
                continue
            }
            if let first = seen[key] {
                errors.append(ConfigurationError(.file(line: line), full, "given twice (first on line \(first))"))
                continue
            }
            seen[key] = line
            out.append((key, p.value, line))
        }
        return out
    }

    /// A node as a setting's input: a scalar, or a list of scalars.
    static func input(_ node: YAMLNode, path: String, errors: inout [ConfigurationError]) -> ConfigurationInput? {
        switch node {
        case .scalar(let s, _, _):
            return .scalar(s)
        case .sequence(let items, _):
            var texts: [String] = []
            for item in items {
                guard let t = item.scalarText else {
                    errors.append(ConfigurationError(.file(line: item.mark.line), path, "list items must be values, not \(item.kindName)"))
                    return nil
                }
                texts.append(t)
            }
            return .list(texts)
        case .mapping:
            errors.append(ConfigurationError(.file(line: node.mark.line), path, "wants a value, got a mapping"))
            return nil
        }
    }

    static func apply(_ setting: GatewaySetting?, _ node: YAMLNode, line: Int, path: String,
                      to c: inout GatewayConfiguration, errors: inout [ConfigurationError]) {
        guard let setting else { return }
        if node.isNull {
            errors.append(ConfigurationError(.file(line: line), path, "has no value"))
            return
        }
        guard let value = input(node, path: path, errors: &errors) else { return }
        if case .list = value, !setting.isList {
            errors.append(ConfigurationError(.file(line: node.mark.line), path, "wants one value, got a list"))
            return
        }
        if let m = setting.apply(&c, value) { errors.append(ConfigurationError(.file(line: node.mark.line), path, m)) }
    }

    static func device(_ node: YAMLNode, path: String, errors: inout [ConfigurationError]) -> DeviceRule? {
        guard case .mapping(let pairs, let mark) = node else {
            errors.append(ConfigurationError(.file(line: node.mark.line), path, "wants a mapping (address:, service:, name_pattern: …), got \(node.kindName)"))
            return nil
        }
        var rule = DeviceRule()
        rule.line = mark.line
        let before = errors.count
        for (key, value, line) in keys(of: pairs, path: path, known: DeviceRuleKeys.all.map(\.name), errors: &errors) {
            guard let k = DeviceRuleKeys.key(key) else { continue }
            if value.isNull {
                errors.append(ConfigurationError(.file(line: line), path + "." + key, "has no value"))
                continue
            }
            guard let v = input(value, path: path + "." + key, errors: &errors) else { continue }
            if case .list = v, !k.isList {
                errors.append(ConfigurationError(.file(line: value.mark.line), path + "." + key, "wants one value, got a list"))
                continue
            }
            if let m = k.apply(&rule, v) { errors.append(ConfigurationError(.file(line: value.mark.line), path + "." + key, m)) }
        }
        guard errors.count == before else { return nil }
        for p in DeviceRuleKeys.problems(of: rule) { errors.append(ConfigurationError(.file(line: mark.line), path, p)) }
        return errors.count == before ? rule : nil
    }
}
