import Glibc
import MQTT
import Wire

/// Typed values from configuration text (a YAML scalar or a command-line word). Each parser
/// returns the value or a message that says what was expected and what came.
public enum ConfigurationValue {
    /// YAML 1.1's booleans as Home Assistant and ESPHome users write them.
    public static func boolean(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default: return nil
        }
    }

    static func parseBoolean(_ text: String) -> Result<Bool, ValueProblem> {
        boolean(text).map { .success($0) } ?? .failure("wants true or false, got '\(text)'")
    }

    static func parseInteger(_ text: String, in range: ClosedRange<Int>) -> Result<Int, ValueProblem> {
        guard let v = Int(text), range.contains(v) else {
            return .failure("wants a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return .success(v)
    }

    static func parseSeconds(_ text: String, in range: ClosedRange<Double>) -> Result<Double, ValueProblem> {
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            return .failure("wants seconds from \(format(range.lowerBound)) to \(format(range.upperBound)), got '\(text)'")
        }
        return .success(v)
    }

    static func parseQoS(_ text: String) -> Result<MQTTQoS, ValueProblem> {
        switch text {
        case "0": return .success(.atMostOnce)
        case "1": return .success(.atLeastOnce)
        default: return .failure("wants 0 or 1 (QoS 2 is not offered), got '\(text)'")
        }
    }

    static func parseURL(_ text: String) -> Result<MQTTBrokerURL, ValueProblem> {
        do { return .success(try MQTTBrokerURL(parsing: text)) } catch { return .failure(ValueProblem(error.description)) }
    }

    static func parseUUID(_ text: String) -> Result<BluetoothUUID, ValueProblem> {
        BluetoothUUID(string: text).map { .success($0) }
            ?? .failure("'\(text)' is not a UUID (2A37, 0x2A37, or the 128-bit form EF680201-9B35-4933-9B10-52FFA9740042)")
    }

    /// `AA:BB:CC:DD:EE:FF`, optionally `/public` or `/random`.
    static func parseAddress(_ text: String) -> Result<(BDAddress, LEAddressType?), ValueProblem> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let a = BDAddress(string: String(parts[0])) else {
            return .failure("'\(text)' is not a device address (AA:BB:CC:DD:EE:FF, optionally /public or /random)")
        }
        guard parts.count == 2 else { return .success((a, nil)) }
        switch parts[1] {
        case "public": return .success((a, .publicDevice))
        case "random": return .success((a, .randomDevice))
        default: return .failure("unknown address type '\(parts[1])' in '\(text)': use /public or /random")
        }
    }

    /// 16 octets as 32 hex digits (a BTHome bind key).
    static func parseKey(_ text: String) -> Result<[UInt8], ValueProblem> {
        guard let bytes = GatewayCommand.parseHex(text), bytes.count == 16 else {
            return .failure("wants a 128-bit key as 32 hex digits, got \(text.count) character(s)")
        }
        return .success(bytes)
    }

    /// One topic level, or several for a prefix.
    static func parseTopic(_ text: String, levels: ClosedRange<Int>) -> Result<String, ValueProblem> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else {
            return .failure(levels.upperBound == 1 ? "wants one topic level (no '/'), got '\(text)'"
                            : "wants topic levels without empty ones or a leading/trailing '/', got '\(text)'")
        }
        if let p = MQTTMessage.problem(publishingTo: text) { return .failure(ValueProblem(p)) }
        return .success(text)
    }

    /// A device or gateway id: one clean topic level.
    static func parseIdentifier(_ text: String) -> Result<String, ValueProblem> {
        TopicLevel.isClean(text) ? .success(text)
            : .failure("wants lower-case letters, digits, '_' or '-' (it names a topic level), got '\(text)'; '\(TopicLevel.sanitize(text))' would do")
    }

    /// An adapter as `--adapter` takes it: hciN, tcp:HOST:PORT, serial:/dev/X[@BAUD], /dev/X or
    /// replay:FILE. Only the form is checked here; opening it is the runtime's job.
    static func parseAdapter(_ text: String) -> Result<String, ValueProblem> {
        let ok: Bool
        if text.hasPrefix("hci") {
            ok = Int(text.dropFirst(3)).map { $0 >= 0 } ?? false
        } else if text.hasPrefix("tcp:") {
            let rest = text.dropFirst(4)
            ok = rest.lastIndex(of: ":").map { i in !rest[..<i].isEmpty && UInt16(rest[rest.index(after: i)...]).map { $0 > 0 } == true } ?? false
        } else if text.hasPrefix("serial:") || text.hasPrefix("replay:") {
            ok = text.count > 7
        } else {
            ok = text.hasPrefix("/dev/")
        }
        return ok ? .success(text) : .failure("'\(text)' is not an adapter (hci0, tcp:HOST:PORT, serial:/dev/ttyUSB0@1000000, /dev/ttyACM0, replay:FILE)")
    }

    /// A shell-style name pattern (`*`, `?`, `[…]`), checked by matching it once.
    static func parsePattern(_ text: String) -> Result<String, ValueProblem> {
        guard !text.isEmpty else { return .failure("wants a name pattern such as 'Thingy*', got an empty one") }
        return .success(text)
    }

    /// Whether `name` matches the shell pattern (fnmatch(3), case-sensitive).
    public static func matches(pattern: String, name: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }

    static func format(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
