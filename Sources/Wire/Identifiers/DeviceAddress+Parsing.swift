/// What was wrong with a device address text.
public enum DeviceAddressParseError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    /// No `/public` or `/random` suffix, and no default type was given.
    case missingType(String)
    /// A suffix other than `public` or `random`.
    case unknownType(String)
    /// The address part does not have six groups.
    case wrongGroupCount(Int)
    /// A group is not two hexadecimal digits (index 0 is the leftmost, most significant).
    case badGroup(index: Int, text: String)

    public var description: String {
        switch self {
        case .empty:
            return "empty address"
        case .missingType(let text):
            return "\"\(text)\" has no address type: append /public or /random"
        case .unknownType(let t):
            return "unknown address type \"\(t)\": use public or random"
        case .wrongGroupCount(let n):
            return "an address has 6 groups of two hex digits (AA:BB:CC:DD:EE:FF), found \(n)"
        case .badGroup(let i, let text):
            return "group \(i + 1) \"\(text)\" is not two hex digits"
        }
    }
}

extension DeviceAddress {
    /// Parses `AA:BB:CC:DD:EE:FF/public` or `…/random` (`-` also separates groups; the type is
    /// case-insensitive; surrounding spaces are ignored). `defaultType` is used when the text
    /// has no suffix; without one a missing suffix is an error, because connecting to a random
    /// address as public (or back) silently fails.
    public init(parsing text: String, defaultType: LEAddressType? = nil) throws(DeviceAddressParseError) {
        let trimmed = text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed()
        let body = String(trimmed)
        if body.isEmpty { throw .empty }
        let pieces = body.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let addressText = pieces[0]
        let type: LEAddressType
        if pieces.count == 2 {
            switch pieces[1].lowercased() {
            case "public": type = .publicDevice
            case "random": type = .randomDevice
            default: throw .unknownType(String(pieces[1]))
            }
        } else if let d = defaultType {
            type = d
        } else {
            throw .missingType(body)
        }
        let groups = addressText.split(separator: ":", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard groups.count == 6 else { throw .wrongGroupCount(groups.count) }
        var bigEndian: [UInt8] = []
        bigEndian.reserveCapacity(6)
        for (i, g) in groups.enumerated() {
            guard g.count == 2, g.utf8.allSatisfy(isHexDigit), let v = UInt8(g, radix: 16) else {
                throw .badGroup(index: i, text: String(g))
            }
            bigEndian.append(v)
        }
        guard let address = BDAddress(bigEndian: bigEndian) else { throw .wrongGroupCount(bigEndian.count) }
        self.init(address, type: type)
    }

    /// `DeviceAddress(parsing:)` without the reason.
    public init?(string: String) {
        guard let a = try? DeviceAddress(parsing: string) else { return nil }
        self = a
    }
}

private func isHexDigit(_ c: UInt8) -> Bool {
    (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
}
