/// Why MQTT could not be set up. Each case names what to do about it.
public enum MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libmosquitto.so.1 could not be loaded.
    case libraryMissing(detail: String)
    /// The library loaded but lacks a function rtstack needs (a build older than 1.6).
    case librarySymbolMissing(symbol: String, detail: String)
    /// The broker address is not an mqtt:// or mqtts:// URL rtstack understands.
    case invalidURL(String, reason: String)
    /// A setting was refused before connecting (an unreadable CA file, a bad topic…).
    case invalidSetting(String)

    public var description: String {
        switch self {
        case .libraryMissing(let detail):
            return "MQTT needs libmosquitto.so.1, which could not be loaded (\(detail)); install it with "
                + "'apt install libmosquitto1' (Debian/Ubuntu) or your distribution's libmosquitto package"
        case .librarySymbolMissing(let symbol, let detail):
            return "libmosquitto.so.1 has no \(symbol) (\(detail)); rtstack needs libmosquitto 1.6 or later "
                + "(Debian package libmosquitto1)"
        case .invalidURL(let text, let reason):
            return "invalid MQTT broker '\(text)': \(reason); expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"
        case .invalidSetting(let what):
            return "invalid MQTT setting: \(what)"
        }
    }
}
