import Wire

/// The connection a command is about, for the peer filter: the Connection_Handle that leads
/// the parameters of the commands below (Core Spec v5.4 Vol 4, Part E, §7), or the peer
/// address of LE Create Connection.
enum CommandConnectionHandle {
    /// Commands whose first parameter is a Connection_Handle.
    private static let handleFirst: Set<UInt16> = [
        0x0406,  // Disconnect
        0x041D,  // Read Remote Version Information
        0x0C2D,  // Read Transmit Power Level
        0x0C7B,  // Read Authenticated Payload Timeout
        0x0C7C,  // Write Authenticated Payload Timeout
        0x1405,  // Read RSSI
        0x2013,  // LE Connection Update
        0x2016,  // LE Read Remote Features
        0x2019,  // LE Enable Encryption
        0x201A,  // LE Long Term Key Request Reply
        0x201B,  // LE Long Term Key Request Negative Reply
        0x2020,  // LE Remote Connection Parameter Request Reply
        0x2021,  // LE Remote Connection Parameter Request Negative Reply
        0x2022,  // LE Set Data Length
        0x2030,  // LE Read PHY
        0x2032,  // LE Set PHY
    ]

    static func of(_ opcode: HCIOpcode, _ parameters: ArraySlice<UInt8>) -> UInt16? {
        guard parameters.count >= 2, handleFirst.contains(opcode.rawValue) else { return nil }
        let b = parameters.startIndex
        return (UInt16(parameters[b]) | UInt16(parameters[b + 1]) << 8) & 0x0FFF
    }

    /// The peer of LE Create Connection (0x200D: Peer_Address_Type at 5, Peer_Address at 6)
    /// and LE Extended Create Connection (0x2043: at 2 and 3).
    static func peer(_ opcode: HCIOpcode, _ parameters: ArraySlice<UInt8>) -> DeviceAddress? {
        let offset: Int
        switch opcode.rawValue {
        case 0x200D: offset = 5
        case 0x2043: offset = 2
        default: return nil
        }
        guard parameters.count >= offset + 7 else { return nil }
        let b = parameters.startIndex + offset
        guard let type = LEAddressType(rawValue: parameters[b]),
              let address = BDAddress(littleEndian: parameters[(b + 1)..<(b + 7)]) else { return nil }
        return DeviceAddress(address, type: type)
    }
}
