import Wire

/// Eddystone-URL (eddystone-url/README.md): Tx power at 0 m (int8), a scheme prefix octet and
/// up to 17 octets of URL in which codes 0x00–0x0D stand for ".com/", ".org/"…, and 0x0E–0x20
/// and 0x7F–0xFF are reserved (rejected: they would give a URL nobody sent).
public struct EddystoneURL: Sendable, Hashable, WireCodable {
    public var txPower: Int8
    public var url: String

    public init(txPower: Int8, url: String) {
        self.txPower = txPower
        self.url = url
    }

    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    static let expansions = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
                             ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]
    public static let maximumEncodedLength = 17

    public init(decoding r: inout ByteReader) throws(WireError) {
        txPower = try r.i8("Eddystone-URL Tx power")
        let scheme = try r.u8("Eddystone-URL scheme")
        guard Int(scheme) < Self.schemes.count else {
            throw WireError.invalidValue(field: "Eddystone-URL scheme", value: UInt64(scheme))
        }
        let encoded = r.rest()
        if encoded.count > Self.maximumEncodedLength {
            throw WireError.malformed("Eddystone-URL of \(encoded.count) octets is longer than 17")
        }
        var text = Self.schemes[Int(scheme)]
        for b in encoded {
            switch b {
            case 0x00...0x0D: text += Self.expansions[Int(b)]
            case 0x21...0x7E: text.unicodeScalars.append(Unicode.Scalar(b))
            default: throw WireError.invalidValue(field: "Eddystone-URL character", value: UInt64(b))
            }
        }
        url = text
    }

    /// Encodes with the longest matching scheme and expansions; URLs that do not start with a
    /// known scheme, hold characters outside 0x21–0x7E or are too long encode what fits (the
    /// caller checks `isEncodable` first).
    public func encode(into w: inout ByteWriter) {
        w.i8(txPower)
        let (scheme, rest) = Self.split(url)
        w.u8(scheme)
        var out: [UInt8] = []
        var s = Substring(rest)
        while let c = s.unicodeScalars.first, out.count < Self.maximumEncodedLength {
            if let (code, n) = Self.expansion(at: s) {
                out.append(code)
                s = s.dropFirst(n)
            } else {
                out.append(UInt8(truncatingIfNeeded: c.value))
                s = Substring(s.unicodeScalars.dropFirst())
            }
        }
        w.append(out)
    }

    /// Whether `url` survives encoding unchanged.
    public var isEncodable: Bool {
        var w = ByteWriter()
        encode(into: &w)
        var r = ByteReader(w.bytes)
        return (try? EddystoneURL(decoding: &r))?.url == url
    }

    private static func split(_ url: String) -> (UInt8, String) {
        // Longest prefix first: "https://www." before "https://".
        for (i, p) in schemes.enumerated().sorted(by: { $0.element.count > $1.element.count }) where url.hasPrefix(p) {
            return (UInt8(i), String(url.dropFirst(p.count)))
        }
        return (2, url)
    }

    private static func expansion(at s: Substring) -> (UInt8, Int)? {
        var best: (UInt8, Int)?
        for (i, e) in expansions.enumerated() where s.hasPrefix(e) {
            if best == nil || e.count > best!.1 { best = (UInt8(i), e.count) }
        }
        return best
    }
}
