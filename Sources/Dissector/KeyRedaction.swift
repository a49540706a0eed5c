import Wire

/// HCI commands that carry key material (LTKs for encryption, IRKs for the resolving list, an
/// AES key): shown with the keys replaced by `[redacted]` unless `--show-keys`.
enum KeyRedaction {
    static let redacted = "[redacted]"

    /// Layout of one key-carrying command: named fields of fixed size, in order; the ones
    /// marked secret are redacted.
    private struct Layout {
        var fields: [(name: String, size: Int, secret: Bool)]
    }

    private static let layouts: [UInt16: Layout] = [
        // LE Encrypt (Vol 4, Part E, §7.8.22): Key, Plaintext_Data.
        0x2017: Layout(fields: [("Key", 16, true), ("Plaintext data", 16, false)]),
        // LE Enable Encryption (§7.8.24): Connection_Handle, Random_Number, Encrypted_Diversifier, Long_Term_Key.
        0x2019: Layout(fields: [("Connection handle", 2, false), ("Random number", 8, false),
                                ("Encrypted diversifier", 2, false), ("Long term key", 16, true)]),
        // LE Long Term Key Request Reply (§7.8.25): Connection_Handle, Long_Term_Key.
        0x201A: Layout(fields: [("Connection handle", 2, false), ("Long term key", 16, true)]),
        // LE Add Device To Resolving List (§7.8.38): Peer_Identity_Address_Type, Peer_Identity_Address, Peer_IRK, Local_IRK.
        0x2027: Layout(fields: [("Peer identity address type", 1, false), ("Peer identity address", 6, false),
                                ("Peer IRK", 16, true), ("Local IRK", 16, true)]),
        // Link Key Request Reply (§7.1.10): BD_ADDR, Link_Key.
        0x040B: Layout(fields: [("BD_ADDR", 6, false), ("Link key", 16, true)]),
    ]

    static func carriesKey(_ opcode: HCIOpcode) -> Bool { layouts[opcode.rawValue] != nil }

    /// The command's summary and fields with its secret fields redacted. Any octets beyond the
    /// layout are shown; a command too short for it is reported.
    static func describeRedacted(_ cmd: HCICommandPacket, into p: inout DissectedPacket, collectFields: Bool) {
        guard let layout = layouts[cmd.opcode.rawValue] else { return }
        var rest = cmd.parameters
        var secrets = 0
        for field in layout.fields {
            guard rest.count >= field.size else {
                p.errors.append("\(cmd.opcode.name) parameters: \(rest.count) octet(s) left for \(field.name) (\(field.size))")
                return
            }
            let value = rest.prefix(field.size)
            rest = rest.dropFirst(field.size)
            if field.secret { secrets += 1 }
            if collectFields {
                p.fields.add(field.name, field.secret ? redacted : Self.text(field.name, value))
            }
        }
        if collectFields, !rest.isEmpty { p.fields.add("Further parameters", Hex.spaced(rest)) }
        p.summary = secrets == 1 ? "key redacted (--show-keys shows it)" : "keys redacted (--show-keys shows them)"
    }

    /// Handles as `0x0040`, other values as hex in wire order.
    private static func text(_ name: String, _ value: ArraySlice<UInt8>) -> String {
        if name == "Connection handle", value.count == 2 {
            let b = value.startIndex
            return Hex.number(UInt16(value[b]) | UInt16(value[b + 1]) << 8, width: 4)
        }
        return Hex.spaced(value)
    }
}
