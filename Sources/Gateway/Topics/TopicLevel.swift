/// Text made safe for one level of an MQTT topic and for Home Assistant object ids: lower-case
/// ASCII letters, digits, `_` and `-`; anything else (`/`, `+`, `#`, spaces, `:`) becomes `_`.
public enum TopicLevel {
    public static func sanitize(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for u in text.unicodeScalars {
            switch u {
            case "a"..."z", "0"..."9", "_", "-": out.unicodeScalars.append(u)
            case "A"..."Z": out.unicodeScalars.append(Unicode.Scalar(u.value + 32)!)
            default: out.append("_")
            }
        }
        return out.isEmpty ? "_" : out
    }

    /// Whether `text` is already a clean level (what `sanitize` would leave unchanged).
    public static func isClean(_ text: String) -> Bool {
        !text.isEmpty && sanitize(text) == text
    }

    /// A device's level from its address: the twelve hex digits, lower case
    /// ("C1:00:00:00:00:01" → "c10000000001").
    public static func fromAddress(_ address: String) -> String {
        sanitize(String(address.prefix { $0 != "/" }.filter { $0 != ":" && $0 != "-" }))
    }
}
