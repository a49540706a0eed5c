import Wire

/// The bond store's text format: one `key value` line per field, documented in
/// Docs/security.md. Text, so that an operator can see what is kept (with `cat` under the
/// right permissions) and a later version can add lines: unknown keys are skipped, missing
/// required ones make the record invalid.
public enum BondRecordCodec {
    public static let header = "rtstack-bond 1"

    public static func encode(_ bond: BondRecord) -> String {
        let p = bond.pairing
        var lines = [header]
        lines.append("address " + p.bondAddress.description)
        lines.append("identity " + (p.identityAddress != nil ? "yes" : "no"))
        lines.append("connected-address " + p.peerAddress.description)
        lines.append("model " + modelToken(p.model))
        lines.append("secure-connections " + (p.secureConnections ? "yes" : "no"))
        lines.append("key-size \(p.keySize)")
        lines.append("bonded " + (p.bonded ? "yes" : "no"))
        if let ltk = p.longTermKey {
            lines.append("ltk " + hex128(ltk.key) + " ediv " + hex(UInt64(ltk.ediv), 4) + " rand " + hex(ltk.rand, 16))
        }
        if let irk = p.identityResolvingKey { lines.append("irk " + hex128(irk)) }
        if let csrk = p.peerSignatureKey {
            lines.append("peer-csrk " + hex128(csrk) + (bond.peerSignCounter.map { " counter \($0)" } ?? ""))
        }
        if let csrk = p.localSignatureKey { lines.append("local-csrk " + hex128(csrk) + " counter \(bond.localSignCounter)") }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func decode(_ text: String) throws(BondRecordError) -> BondRecord {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard lines.first == header else { throw BondRecordError("the first line is not \"\(header)\"") }
        lines.removeFirst()
        var fields: [String: [String]] = [:]
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            guard let key = words.first else { continue }
            fields[key] = Array(words.dropFirst())
        }
        func one(_ key: String) throws(BondRecordError) -> String {
            guard let v = fields[key]?.first else { throw BondRecordError("no \(key) line") }
            return v
        }
        guard let address = DeviceAddress(bondText: try one("address")) else { throw BondRecordError("address is not ADDRESS/public or ADDRESS/random") }
        let connected = fields["connected-address"]?.first.flatMap(DeviceAddress.init(bondText:)) ?? address
        guard let model = model(try one("model")) else { throw BondRecordError("unknown model \(try one("model"))") }
        guard let keySize = UInt8(try one("key-size")), SMPPairingFeatures.keySizeRange.contains(keySize) else {
            throw BondRecordError("key-size is not 7–16")
        }
        var pairing = PairingResult(peerAddress: connected, identityAddress: fields["identity"]?.first == "yes" ? address : nil,
                                    model: model, secureConnections: try one("secure-connections") == "yes",
                                    keySize: keySize, bonded: fields["bonded"]?.first != "no")
        if let ltk = fields["ltk"] {
            guard ltk.count == 5, ltk[1] == "ediv", ltk[3] == "rand", let key = value128(ltk[0]),
                  let ediv = UInt16(ltk[2], radix: 16), let rand = UInt64(ltk[4], radix: 16) else {
                throw BondRecordError("ltk line is not \"ltk KEY ediv EDIV rand RAND\"")
            }
            pairing.longTermKey = LinkEncryptionKey(key: key, ediv: ediv, rand: rand, keySize: keySize)
        }
        if let irk = fields["irk"] {
            guard let v = irk.first.flatMap(value128) else { throw BondRecordError("irk is not 32 hex digits") }
            pairing.identityResolvingKey = v
        }
        var peerCounter: UInt32?
        if let csrk = fields["peer-csrk"] {
            guard let v = csrk.first.flatMap(value128) else { throw BondRecordError("peer-csrk is not 32 hex digits") }
            pairing.peerSignatureKey = v
            if csrk.count == 3, csrk[1] == "counter" { peerCounter = UInt32(csrk[2]) }
        }
        var localCounter: UInt32 = 0
        if let csrk = fields["local-csrk"] {
            guard let v = csrk.first.flatMap(value128) else { throw BondRecordError("local-csrk is not 32 hex digits") }
            pairing.localSignatureKey = v
            if csrk.count == 3, csrk[1] == "counter", let c = UInt32(csrk[2]) { localCounter = c }
        }
        return BondRecord(pairing: pairing, localSignCounter: localCounter, peerSignCounter: peerCounter)
    }

    static func modelToken(_ model: AssociationModel) -> String {
        switch model {
        case .justWorks: return "just-works"
        case .numericComparison: return "numeric-comparison"
        case .passkeyEntry(.initiatorDisplays): return "passkey-rtstack-displays"
        case .passkeyEntry(.responderDisplays): return "passkey-peer-displays"
        case .passkeyEntry(.bothInput): return "passkey-both-enter"
        }
    }

    static func model(_ token: String) -> AssociationModel? {
        let all: [AssociationModel] = [.justWorks, .numericComparison, .passkeyEntry(.initiatorDisplays),
                                       .passkeyEntry(.responderDisplays), .passkeyEntry(.bothInput)]
        return all.first { modelToken($0) == token }
    }

    /// 32 hex digits, most significant first (the order the specification writes keys in).
    public static func hex128(_ v: UInt128) -> String { hex(UInt64(truncatingIfNeeded: v >> 64), 16) + hex(UInt64(truncatingIfNeeded: v), 16) }

    static func hex(_ v: UInt64, _ digits: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }

    public static func value128(_ s: String) -> UInt128? {
        guard s.utf8.count == 32, let hi = UInt64(s.prefix(16), radix: 16), let lo = UInt64(s.suffix(16), radix: 16) else { return nil }
        return UInt128(hi) << 64 | UInt128(lo)
    }
}

public struct BondRecordError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

extension DeviceAddress {
    /// `AA:BB:CC:DD:EE:FF/public` or `/random`, as `description` writes it.
    init?(bondText: String) {
        let parts = bondText.split(separator: "/")
        guard parts.count == 2, let a = BDAddress(string: String(parts[0])) else { return nil }
        switch parts[1] {
        case "public": self.init(a, type: .publicDevice)
        case "random": self.init(a, type: .randomDevice)
        default: return nil
        }
    }
}
