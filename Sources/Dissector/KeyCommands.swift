import Wire

/// HCI commands of LE encryption and address resolution, several of which carry key
/// material (LTKs, IRKs, an AES key): decoded field by field, the keys shown only with
/// `--show-keys` (`SMPKeyVisibility`), as the SMP PDUs that distribute them are.
enum KeyCommands {
    /// Layout of one command: named fields of fixed size, in order; `secret` ones are keys.
    private struct Layout {
        var fields: [(name: String, size: Int, secret: Bool)]
    }

    private static let layouts: [UInt16: Layout] = [
        // LE Encrypt (Vol 4, Part E, §7.8.22): Key, Plaintext_Data.
        0x2017: Layout(fields: [("Key", 16, true), ("Plaintext data", 16, false)]),
        // LE Enable Encryption (§7.8.24): Connection_Handle, Random_Number,
        // Encrypted_Diversifier, Long_Term_Key.
        0x2019: Layout(fields: [("Connection handle", 2, false), ("Random number", 8, false),
                                ("Encrypted diversifier", 2, false), ("Long term key", 16, true)]),
        // LE Long Term Key Request Reply (§7.8.25): Connection_Handle, Long_Term_Key.
        0x201A: Layout(fields: [("Connection handle", 2, false), ("Long term key", 16, true)]),
        // LE Long Term Key Request Negative Reply (§7.8.26): Connection_Handle.
        0x201B: Layout(fields: [("Connection handle", 2, false)]),
        // LE Add Device To Resolving List (§7.8.38): Peer_Identity_Address_Type,
        // Peer_Identity_Address, Peer_IRK, Local_IRK.
        0x2027: Layout(fields: [("Peer identity address type", 1, false), ("Peer identity address", 6, false),
                                ("Peer IRK", 16, true), ("Local IRK", 16, true)]),
        // Link Key Request Reply (§7.1.10): BD_ADDR, Link_Key.
        0x040B: Layout(fields: [("BD_ADDR", 6, false), ("Link key", 16, true)]),
    ]

    static func handles(_ opcode: HCIOpcode) -> Bool { layouts[opcode.rawValue] != nil }

    /// Summary and fields of `cmd`. Octets beyond the layout are shown; a command too short
    /// for it is reported.
    static func describe(_ cmd: HCICommandPacket, keys: SMPKeyVisibility, into p: inout DissectedPacket,
                         collectFields: Bool) {
        guard let layout = layouts[cmd.opcode.rawValue] else { return }
        var rest = cmd.parameters
        var summary: [String] = []
        var offset = 3   // opcode and parameter length
        for field in layout.fields {
            guard rest.count >= field.size else {
                p.errors.append("\(cmd.opcode.name) parameters: \(rest.count) octet(s) left for \(field.name) (\(field.size))")
                break
            }
            let value = rest.prefix(field.size)
            rest = rest.dropFirst(field.size)
            if field.secret && keys == .redacted {
                let r = offset..<(offset + field.size)
                p.redactedBytes = p.redactedBytes.map { min($0.lowerBound, r.lowerBound)..<max($0.upperBound, r.upperBound) } ?? r
            }
            offset += field.size
            let text = field.secret && keys == .redacted ? SMPKeyVisibility.placeholder : Self.text(field.name, value)
            if collectFields { p.fields.add(field.name, text) }
            switch field.name {
            case "Connection handle": summary.append("handle " + text)
            case "Encrypted diversifier": summary.append("ediv " + text)
            default: if field.secret { summary.append(field.name.lowercased() + " " + text) }
            }
        }
        if collectFields, !rest.isEmpty { p.fields.add("Further parameters", Hex.spaced(rest)) }
        if collectFields, let r = p.redactedBytes {
            p.fields.add("Redacted", "octets \(r.lowerBound)–\(r.upperBound - 1) (keys) show as 00 in hex; --show-keys shows them")
        }
        p.summary = summary.joined(separator: " ")
    }

    /// Handles and the diversifier as numbers, addresses as addresses, the rest as hex in
    /// wire order.
    private static func text(_ name: String, _ value: ArraySlice<UInt8>) -> String {
        let b = value.startIndex
        switch (name, value.count) {
        case ("Connection handle", 2):
            return Hex.number((UInt16(value[b]) | UInt16(value[b + 1]) << 8) & 0x0FFF, width: 4)
        case ("Encrypted diversifier", 2):
            return Hex.number(UInt16(value[b]) | UInt16(value[b + 1]) << 8, width: 4)
        case (_, 6) where name.containsText("ADDR") || name.containsText("address"):
            return BDAddress(littleEndian: value)?.string ?? Hex.spaced(value)
        default:
            return Hex.spaced(value)
        }
    }
}
