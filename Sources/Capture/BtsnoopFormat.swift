import Wire

/// btsnoop version 1: the layout of RFC 1761 "snoop" with Bluetooth datalinks, all integers
/// big-endian. See Docs/capture-formats.md for the byte tables.
public enum BtsnoopFormat {
    /// "btsnoop" and a NUL.
    public static let magic: [UInt8] = [0x62, 0x74, 0x73, 0x6e, 0x6f, 0x6f, 0x70, 0x00]
    public static let version: UInt32 = 1
    public static let fileHeaderLength = 16
    public static let recordHeaderLength = 24

    /// HCI packets without the H4 indicator; type comes from the record flags.
    public static let datalinkHCI: UInt32 = 1001
    /// HCI packets with the H4 indicator byte (Android's `btsnoop_hci.log`).
    public static let datalinkUART: UInt32 = 1002
    /// Linux monitor channel (btmon): the flags carry adapter index and opcode.
    public static let datalinkMonitor: UInt32 = 2001
    public static let supportedDatalinks: [UInt32] = [datalinkHCI, datalinkUART, datalinkMonitor]

    /// btsnoop counts microseconds "since midnight, 1 January 0 AD"; this is the count every
    /// writer and Wireshark use for the Unix epoch (719,540 days: a nominal year 0, not an
    /// exact calendar computation, so use the constant rather than a date library).
    public static let epochOffsetMicros: Int64 = 0x00dc_ddb3_0f2f_8000

    /// Record flag bit 0: set when the packet went controller → host.
    public static let flagReceived: UInt32 = 1 << 0
    /// Record flag bit 1: set for commands and events, clear for data (ACL/SCO/ISO).
    public static let flagCommandOrEvent: UInt32 = 1 << 1

    /// Largest included length the reader accepts; HCI packets stay below 64 KiB + headers,
    /// so anything larger is a corrupt length, not a packet.
    public static let maximumIncludedLength = 1 << 20

    public static func datalinkName(_ datalink: UInt32) -> String {
        switch datalink {
        case 1001: return "HCI without H4 byte"
        case 1002: return "HCI UART (H4)"
        case 1003: return "HCI BCSP"
        case 1004: return "HCI three-wire UART"
        case 2001: return "Linux monitor"
        case 2002: return "simulator"
        default: return "unknown"
        }
    }

    /// Linux monitor opcodes (low 16 bits of the flags under datalink 2001) that carry HCI
    /// packets, with the packet type and direction they imply.
    public static func monitorPacket(opcode: UInt16) -> (type: H4PacketType, direction: Direction)? {
        switch opcode {
        case 2: return (.command, .hostToController)
        case 3: return (.event, .controllerToHost)
        case 4: return (.acl, .hostToController)
        case 5: return (.acl, .controllerToHost)
        case 6: return (.sco, .hostToController)
        case 7: return (.sco, .controllerToHost)
        case 18: return (.iso, .hostToController)
        case 19: return (.iso, .controllerToHost)
        default: return nil
        }
    }

    public static func monitorOpcodeName(_ opcode: UInt16) -> String {
        switch opcode {
        case 0: return "New Index"
        case 1: return "Delete Index"
        case 2: return "Command Packet"
        case 3: return "Event Packet"
        case 4: return "ACL TX Packet"
        case 5: return "ACL RX Packet"
        case 6: return "SCO TX Packet"
        case 7: return "SCO RX Packet"
        case 8: return "Open Index"
        case 9: return "Close Index"
        case 10: return "Index Info"
        case 11: return "Vendor Diagnostic"
        case 12: return "System Note"
        case 13: return "User Logging"
        case 14: return "Control Open"
        case 15: return "Control Close"
        case 16: return "Control Command"
        case 17: return "Control Event"
        case 18: return "ISO TX Packet"
        case 19: return "ISO RX Packet"
        default: return "unknown opcode"
        }
    }

    /// The 16-byte file header.
    public static func fileHeader(datalink: UInt32 = datalinkUART) -> [UInt8] {
        var out = magic
        appendU32BE(version, to: &out)
        appendU32BE(datalink, to: &out)
        return out
    }

    /// Appends `record` as a datalink 1002 record (header + H4 byte + packet).
    public static func appendRecord(_ record: CaptureRecord, to out: inout [UInt8]) throws(CaptureError) {
        let length = record.packet.bytes.count + 1
        guard length <= maximumIncludedLength else {
            throw .unrepresentable(reason: "packet of \(length) bytes exceeds the 1 MiB record limit")
        }
        var flags: UInt32 = record.direction == .controllerToHost ? flagReceived : 0
        if record.packet.type == .command || record.packet.type == .event { flags |= flagCommandOrEvent }
        appendU32BE(UInt32(truncatingIfNeeded: length), to: &out)   // original length
        appendU32BE(UInt32(truncatingIfNeeded: length), to: &out)   // included length
        appendU32BE(flags, to: &out)
        appendU32BE(0, to: &out)                                    // cumulative drops
        let stamp = record.timestampMicros &+ epochOffsetMicros
        appendU32BE(UInt32(truncatingIfNeeded: UInt64(bitPattern: stamp) >> 32), to: &out)
        appendU32BE(UInt32(truncatingIfNeeded: UInt64(bitPattern: stamp)), to: &out)
        out.append(record.packet.type.rawValue)
        out.append(contentsOf: record.packet.bytes)
    }
}

@inline(__always)
func appendU32BE(_ v: UInt32, to out: inout [UInt8]) {
    out.append(UInt8(truncatingIfNeeded: v >> 24))
    out.append(UInt8(truncatingIfNeeded: v >> 16))
    out.append(UInt8(truncatingIfNeeded: v >> 8))
    out.append(UInt8(truncatingIfNeeded: v))
}

@inline(__always)
func appendU32LE(_ v: UInt32, to out: inout [UInt8]) {
    out.append(UInt8(truncatingIfNeeded: v))
    out.append(UInt8(truncatingIfNeeded: v >> 8))
    out.append(UInt8(truncatingIfNeeded: v >> 16))
    out.append(UInt8(truncatingIfNeeded: v >> 24))
}
