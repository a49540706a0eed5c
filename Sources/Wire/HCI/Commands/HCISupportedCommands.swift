/// The 64-octet Supported_Commands bitmap (Core Spec v5.4 Vol 4, Part E, §6.27): one bit per
/// command, so the host can pick e.g. extended scanning only where the controller has it.
public struct HCISupportedCommands: Hashable, Sendable {
    public static let length = 64

    /// The octets as received (a slice of the input; empty when none were sent).
    public var octets: ArraySlice<UInt8>

    public init(octets: ArraySlice<UInt8>) { self.octets = octets }

    public init(octets: [UInt8]) { self.init(octets: octets[...]) }

    /// Whether bit `bit` of octet `octet` is set; false outside the bitmap.
    public func contains(octet: Int, bit: Int) -> Bool {
        guard octet >= 0, octet < octets.count, bit >= 0, bit < 8 else { return false }
        return octets[octets.startIndex + octet] & (1 << UInt8(bit)) != 0
    }

    /// Whether the controller lists `opcode`; nil when the position of that command's bit is
    /// not in this table.
    public func supports(_ opcode: HCIOpcode) -> Bool? {
        guard let p = HCISupportedCommands.position(of: opcode) else { return nil }
        return contains(octet: p.octet, bit: p.bit)
    }

    /// Octet and bit of a command in the bitmap, for the commands a BLE central uses.
    public static func position(of opcode: HCIOpcode) -> (octet: Int, bit: Int)? {
        for entry in table where entry.opcode == opcode.rawValue {
            return (entry.octet, entry.bit)
        }
        return nil
    }

    /// Opcodes of this table that the bitmap lists, in table order.
    public var supportedKnownOpcodes: [HCIOpcode] {
        HCISupportedCommands.table.compactMap { e in
            contains(octet: e.octet, bit: e.bit) ? HCIOpcode(rawValue: e.opcode) : nil
        }
    }

    /// Number of bits set in the whole bitmap.
    public var count: Int { octets.reduce(0) { $0 + $1.nonzeroBitCount } }

    private struct Entry {
        var opcode: UInt16
        var octet: Int
        var bit: Int
    }

    // Octet/bit positions from §6.27, Table 6.27.
    private static let table: [Entry] = [
        Entry(opcode: 0x0406, octet: 0, bit: 5),    // Disconnect
        Entry(opcode: 0x041D, octet: 2, bit: 7),    // Read Remote Version Information
        Entry(opcode: 0x0C01, octet: 5, bit: 6),    // Set Event Mask
        Entry(opcode: 0x0C03, octet: 5, bit: 7),    // Reset
        Entry(opcode: 0x0C33, octet: 10, bit: 6),   // Host Buffer Size
        Entry(opcode: 0x1001, octet: 14, bit: 3),   // Read Local Version Information
        Entry(opcode: 0x1003, octet: 14, bit: 5),   // Read Local Supported Features
        Entry(opcode: 0x1005, octet: 14, bit: 7),   // Read Buffer Size
        Entry(opcode: 0x1009, octet: 15, bit: 1),   // Read BD_ADDR
        Entry(opcode: 0x1405, octet: 15, bit: 5),   // Read RSSI
        Entry(opcode: 0x1408, octet: 20, bit: 4),   // Read Encryption Key Size
        Entry(opcode: 0x0C6D, octet: 24, bit: 6),   // Write LE Host Support
        Entry(opcode: 0x2001, octet: 25, bit: 0),   // LE Set Event Mask
        Entry(opcode: 0x2002, octet: 25, bit: 1),   // LE Read Buffer Size [v1]
        Entry(opcode: 0x2003, octet: 25, bit: 2),   // LE Read Local Supported Features
        Entry(opcode: 0x2005, octet: 25, bit: 4),   // LE Set Random Address
        Entry(opcode: 0x2006, octet: 25, bit: 5),   // LE Set Advertising Parameters
        Entry(opcode: 0x2008, octet: 25, bit: 7),   // LE Set Advertising Data
        Entry(opcode: 0x2009, octet: 26, bit: 0),   // LE Set Scan Response Data
        Entry(opcode: 0x200A, octet: 26, bit: 1),   // LE Set Advertising Enable
        Entry(opcode: 0x200B, octet: 26, bit: 2),   // LE Set Scan Parameters
        Entry(opcode: 0x200C, octet: 26, bit: 3),   // LE Set Scan Enable
        Entry(opcode: 0x200D, octet: 26, bit: 4),   // LE Create Connection
        Entry(opcode: 0x200E, octet: 26, bit: 5),   // LE Create Connection Cancel
        Entry(opcode: 0x200F, octet: 26, bit: 6),   // LE Read Filter Accept List Size
        Entry(opcode: 0x2010, octet: 26, bit: 7),   // LE Clear Filter Accept List
        Entry(opcode: 0x2011, octet: 27, bit: 0),   // LE Add Device To Filter Accept List
        Entry(opcode: 0x2012, octet: 27, bit: 1),   // LE Remove Device From Filter Accept List
        Entry(opcode: 0x2013, octet: 27, bit: 2),   // LE Connection Update
        Entry(opcode: 0x2016, octet: 27, bit: 5),   // LE Read Remote Features
        Entry(opcode: 0x2019, octet: 28, bit: 0),   // LE Enable Encryption
        Entry(opcode: 0x201B, octet: 28, bit: 2),   // LE Long Term Key Request Negative Reply
        Entry(opcode: 0x201C, octet: 28, bit: 3),   // LE Read Supported States
        Entry(opcode: 0x2020, octet: 33, bit: 4),   // LE Remote Connection Parameter Request Reply
        Entry(opcode: 0x2021, octet: 33, bit: 5),   // … Negative Reply
        Entry(opcode: 0x2022, octet: 33, bit: 6),   // LE Set Data Length
        Entry(opcode: 0x2023, octet: 33, bit: 7),   // LE Read Suggested Default Data Length
        Entry(opcode: 0x2024, octet: 34, bit: 0),   // LE Write Suggested Default Data Length
        Entry(opcode: 0x2027, octet: 34, bit: 3),   // LE Add Device To Resolving List
        Entry(opcode: 0x2029, octet: 34, bit: 5),   // LE Clear Resolving List
        Entry(opcode: 0x202D, octet: 35, bit: 1),   // LE Set Address Resolution Enable
        Entry(opcode: 0x202F, octet: 35, bit: 3),   // LE Read Maximum Data Length
        Entry(opcode: 0x2030, octet: 35, bit: 4),   // LE Read PHY
        Entry(opcode: 0x2031, octet: 35, bit: 5),   // LE Set Default PHY
        Entry(opcode: 0x2032, octet: 35, bit: 6),   // LE Set PHY
        Entry(opcode: 0x2041, octet: 37, bit: 5),   // LE Set Extended Scan Parameters
        Entry(opcode: 0x2042, octet: 37, bit: 6),   // LE Set Extended Scan Enable
        Entry(opcode: 0x2043, octet: 37, bit: 7),   // LE Extended Create Connection [v1]
        Entry(opcode: 0x204E, octet: 39, bit: 2),   // LE Set Privacy Mode
        Entry(opcode: 0x2060, octet: 41, bit: 5),   // LE Read Buffer Size [v2]
    ]
}

/// HCI_Read_Local_Supported_Commands (Core Spec v5.4 Vol 4, Part E, §7.4.2).
public struct ReadLocalSupportedCommands: HCICommandWithoutParameters, Hashable {
    public static let opcode = HCIOpcode.readLocalSupportedCommands
    public init() {}

    /// When the status is not success and the controller sent only the status, the bitmap is
    /// empty and `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var supportedCommands: HCISupportedCommands
        public var isStatusOnly: Bool

        public init(status: HCIStatus = .success, supportedCommands: HCISupportedCommands) {
            self.status = status
            self.supportedCommands = supportedCommands
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            isStatusOnly = !status.isSuccess && r.count < HCISupportedCommands.length
            if isStatusOnly {
                supportedCommands = HCISupportedCommands(octets: [])
                return
            }
            supportedCommands = HCISupportedCommands(
                octets: try r.bytes(HCISupportedCommands.length, "Supported_Commands"))
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            let o = supportedCommands.octets.prefix(HCISupportedCommands.length)
            w.append(o)
            for _ in o.count..<HCISupportedCommands.length { w.u8(0) }
        }

        public var summary: String {
            isStatusOnly ? status.description : String(supportedCommands.count) + " commands"
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            fields.add("Commands", String(supportedCommands.count) + " bits set")
            fields.add("Bitmap", Hex.spaced(supportedCommands.octets))
            let known = supportedCommands.supportedKnownOpcodes
            if !known.isEmpty {
                fields.nested("Supported (of interest)") { f in
                    for op in known { f.add(op.name, HCICommandFormat.hex(op.rawValue)) }
                }
            }
        }
    }
}
