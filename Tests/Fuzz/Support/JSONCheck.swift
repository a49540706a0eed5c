// A strict JSON syntax check (RFC 8259) for the dissector harness: the decoder's JSON Lines
// carry strings from the air (device names, values), so every line must stay valid JSON.

/// True when `text` is exactly one JSON value (surrounding whitespace allowed).
func isValidJSON(_ text: String) -> Bool {
    var p = JSONSyntax(Array(text.utf8))
    p.skipSpace()
    guard p.value(depth: 0) else { return false }
    p.skipSpace()
    return p.i == p.b.count
}

private struct JSONSyntax {
    let b: [UInt8]
    var i = 0
    init(_ b: [UInt8]) { self.b = b }

    var peek: UInt8? { i < b.count ? b[i] : nil }

    mutating func skipSpace() {
        while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1 }
    }

    mutating func literal(_ s: String) -> Bool {
        for c in s.utf8 {
            guard peek == c else { return false }
            i += 1
        }
        return true
    }

    mutating func value(depth: Int) -> Bool {
        guard depth < 200, let c = peek else { return false }
        switch c {
        case UInt8(ascii: "{"):
            i += 1
            skipSpace()
            if peek == UInt8(ascii: "}") { i += 1; return true }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\""), string() else { return false }
                skipSpace()
                guard peek == UInt8(ascii: ":") else { return false }
                i += 1
                skipSpace()
                guard value(depth: depth + 1) else { return false }
                skipSpace()
                if peek == UInt8(ascii: ",") { i += 1; continue }
                guard peek == UInt8(ascii: "}") else { return false }
                i += 1
                return true
            }
        case UInt8(ascii: "["):
            i += 1
            skipSpace()
            if peek == UInt8(ascii: "]") { i += 1; return true }
            while true {
                skipSpace()
                guard value(depth: depth + 1) else { return false }
                skipSpace()
                if peek == UInt8(ascii: ",") { i += 1; continue }
                guard peek == UInt8(ascii: "]") else { return false }
                i += 1
                return true
            }
        case UInt8(ascii: "\""):
            return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default:
            return number()
        }
    }

    mutating func string() -> Bool {
        i += 1  // opening quote
        while let c = peek {
            i += 1
            switch c {
            case UInt8(ascii: "\""):
                return true
            case UInt8(ascii: "\\"):
                guard let e = peek else { return false }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    for _ in 0..<4 {
                        guard let h = peek, isHex(h) else { return false }
                        i += 1
                    }
                default:
                    return false
                }
            default:
                if c < 0x20 { return false }  // control characters must be escaped
            }
        }
        return false
    }

    func isHex(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }

    func isDigit(_ c: UInt8?) -> Bool { c.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }

    mutating func number() -> Bool {
        if peek == UInt8(ascii: "-") { i += 1 }
        guard isDigit(peek) else { return false }
        if peek == UInt8(ascii: "0") {
            i += 1
        } else {
            while isDigit(peek) { i += 1 }
        }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard isDigit(peek) else { return false }
            while isDigit(peek) { i += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard isDigit(peek) else { return false }
            while isDigit(peek) { i += 1 }
        }
        return true
    }
}
