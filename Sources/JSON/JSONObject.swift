/// Minimal JSON text builder for JSON Lines output. Hand-written because the decoder writes
/// one object per packet at hundreds of thousands of packets per second, and Foundation's
/// encoder is neither allowed in the lower layers nor fast enough for that.
public struct JSONObject: Sendable {
    public private(set) var text: String = "{"
    private var empty = true

    public init() {}

    /// An object whose text is expected to stay within `capacity` octets: the text is allocated
    /// once instead of growing in steps (a gateway builds one per MQTT message).
    public init(reservingCapacity capacity: Int) {
        text.reserveCapacity(capacity)
    }

    private mutating func key(_ k: String) {
        if !empty { text.append(",") }
        empty = false
        text.append("\"")
        text.append(k)
        text.append("\":")
    }

    public mutating func add(_ k: String, _ v: String) {
        key(k)
        JSONObject.appendQuoted(v, to: &text)
    }

    public mutating func add(_ k: String, _ v: Int) {
        key(k)
        text.append(String(v))
    }

    public mutating func add(_ k: String, _ v: Double, decimals: Int = 6) {
        key(k)
        text.append(JSONObject.number(v, decimals: decimals))
    }

    public mutating func add(_ k: String, _ v: Bool) {
        key(k)
        text.append(v ? "true" : "false")
    }

    public mutating func add(_ k: String, raw: String) {
        key(k)
        text.append(raw)
    }

    public mutating func add(_ k: String, _ o: JSONObject) {
        key(k)
        text.append(o.finished)
    }

    public mutating func add(_ k: String, ints: [Int]) {
        array(k, ints) { $1.append(String($0)) }
    }

    public mutating func add(_ k: String, strings: [String]) {
        array(k, strings) { JSONObject.appendQuoted($0, to: &$1) }
    }

    public mutating func add(_ k: String, objects: [JSONObject]) {
        array(k, objects) { $1.append($0.finished) }
    }

    /// `"k":[…]`, each element written by `write`.
    private mutating func array<Element>(_ k: String, _ elements: [Element], _ write: (Element, inout String) -> Void) {
        key(k)
        text.append("[")
        for (i, v) in elements.enumerated() {
            if i > 0 { text.append(",") }
            write(v, &text)
        }
        text.append("]")
    }

    public var finished: String { text + "}" }

    /// `finished` as UTF-8 octets (an MQTT payload), copied once from the text.
    public var finishedUTF8: [UInt8] {
        var octets: [UInt8] = []
        octets.reserveCapacity(text.utf8.count + 1)
        octets.append(contentsOf: text.utf8)
        octets.append(0x7D)
        return octets
    }

    /// Fixed-point text without exponent; JSON has no NaN or infinity, so those become null.
    public static func number(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(v) * scale).rounded()
        guard scaled < 9e18 else { return String(v) }
        let n = UInt64(scaled)
        let p = UInt64(scale)
        var frac = String(n % p)
        frac = String(repeating: "0", count: max(0, decimals - frac.count)) + frac
        while frac.hasSuffix("0") { frac.removeLast() }
        let whole = (v < 0 ? "-" : "") + String(n / p)
        return frac.isEmpty ? whole : whole + "." + frac
    }

    public static func appendQuoted(_ s: String, to out: inout String) {
        out.append("\"")
        var needsEscape = false
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5c { needsEscape = true; break }
        if !needsEscape {
            out.append(s)
        } else {
            for u in s.unicodeScalars {
                switch u {
                case "\"": out.append("\\\"")
                case "\\": out.append("\\\\")
                case "\n": out.append("\\n")
                case "\r": out.append("\\r")
                case "\t": out.append("\\t")
                default:
                    if u.value < 0x20 {
                        let h = String(u.value, radix: 16)
                        out.append("\\u" + String(repeating: "0", count: 4 - h.count) + h)
                    } else {
                        out.unicodeScalars.append(u)
                    }
                }
            }
        }
        out.append("\"")
    }
}
