/// A URI scheme code point (Assigned Numbers §2.7, "URI Schemes"): advertising data replaces a
/// URI's scheme name (`https:`) with one code point to save octets.
public struct URIScheme: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// No scheme substitution: the rest of the field is the whole URI.
    public static let empty = URIScheme(rawValue: 0x01)
    public static let http = URIScheme(rawValue: 0x16)
    public static let https = URIScheme(rawValue: 0x17)

    /// The scheme text the code point stands for, including its colon; `""` for the empty
    /// scheme; nil for a code point not known here.
    public var prefix: String? {
        switch rawValue {
        case 0x01: return ""
        case 0x02: return "aaa:"
        case 0x03: return "aaas:"
        case 0x04: return "about:"
        case 0x09: return "coap:"
        case 0x0A: return "coaps:"
        case 0x0C: return "data:"
        case 0x10: return "file:"
        case 0x11: return "ftp:"
        case 0x12: return "geo:"
        case 0x16: return "http:"
        case 0x17: return "https:"
        case 0x1B: return "imap:"
        case 0x25: return "ldap:"
        case 0x26: return "mailto:"
        case 0x2C: return "news:"
        case 0x35: return "rtsp:"
        case 0x3C: return "sip:"
        case 0x3D: return "sips:"
        case 0x3E: return "sms:"
        case 0x44: return "tag:"
        case 0x45: return "tel:"
        case 0x46: return "telnet:"
        case 0x4E: return "urn:"
        case 0x50: return "ws:"
        case 0x51: return "wss:"
        case 0x56: return "xmpp:"
        case 0xA0: return "sftp:"
        case 0xA7: return "ssh:"
        case 0xBB: return "bluetooth:"
        default: return nil
        }
    }

    public var description: String {
        let code = Hex.number(rawValue, width: 4)
        switch prefix {
        case .some(""): return "empty scheme (" + code + ")"
        case .some(let p): return "\"" + p + "\" (" + code + ")"
        case .none: return "unknown scheme (" + code + ")"
        }
    }
}

/// URI (Core Specification Supplement Part A §1.18): a scheme code point written as one UTF-8
/// character, then the rest of the URI in UTF-8.
public struct ADURI: Hashable, Sendable, CustomStringConvertible {
    public var scheme: URIScheme
    /// Everything after the scheme (`//example.com/x`).
    public var remainder: String

    public init(scheme: URIScheme, remainder: String) {
        self.scheme = scheme
        self.remainder = remainder
    }

    /// Splits a URI text on its scheme when the scheme has a code point known here, otherwise
    /// keeps the whole text behind the empty scheme. (Every known prefix ends in `:`, so at
    /// most one of them can match.)
    public init(_ text: String) {
        for raw in UInt32(2)...0xBB {
            let code = URIScheme(rawValue: raw)
            if let p = code.prefix, text.hasPrefix(p) {
                self.init(scheme: code, remainder: String(text.dropFirst(p.count)))
                return
            }
        }
        self.init(scheme: .empty, remainder: text)
    }

    /// The whole URI when the scheme is known; otherwise the remainder alone.
    public var string: String { (scheme.prefix ?? "") + remainder }

    public var description: String {
        scheme.prefix == nil ? scheme.description + " " + remainder : string
    }

    /// Reads the first UTF-8 character as a code point; nil if the octets do not start with a
    /// well-formed sequence (1 to 4 octets, no overlong forms, no surrogates).
    static func firstCodePoint(_ b: ArraySlice<UInt8>) -> (value: UInt32, length: Int)? {
        guard let lead = b.first else { return nil }
        let i = b.startIndex
        func cont(_ k: Int) -> UInt32? {
            guard b.count > k else { return nil }
            let c = b[i + k]
            return c & 0xC0 == 0x80 ? UInt32(c & 0x3F) : nil
        }
        switch lead {
        case 0x00...0x7F:
            return (UInt32(lead), 1)
        case 0xC2...0xDF:
            guard let c1 = cont(1) else { return nil }
            return (UInt32(lead & 0x1F) << 6 | c1, 2)
        case 0xE0...0xEF:
            guard let c1 = cont(1), let c2 = cont(2) else { return nil }
            let v = UInt32(lead & 0x0F) << 12 | c1 << 6 | c2
            guard v >= 0x800, !(0xD800...0xDFFF).contains(v) else { return nil }
            return (v, 3)
        case 0xF0...0xF4:
            guard let c1 = cont(1), let c2 = cont(2), let c3 = cont(3) else { return nil }
            let v = UInt32(lead & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
            guard (0x10000...0x10FFFF).contains(v) else { return nil }
            return (v, 4)
        default:
            return nil
        }
    }

    static func decode(_ bytes: ArraySlice<UInt8>) throws(WireError) -> ADURI {
        guard let (code, n) = firstCodePoint(bytes) else {
            if bytes.isEmpty { throw WireError.truncated(field: "URI scheme", needed: 1, available: 0) }
            throw WireError.invalidValue(field: "URI scheme", value: UInt64(bytes[bytes.startIndex]))
        }
        let rest = bytes.dropFirst(n)
        return ADURI(scheme: URIScheme(rawValue: code), remainder: String(decoding: rest, as: UTF8.self))
    }

    func encodeData(into w: inout ByteWriter) {
        let scalar = Unicode.Scalar(scheme.rawValue) ?? "\u{01}"
        w.append(String(Character(scalar)).utf8)
        w.append(remainder.utf8)
    }
}
