/// One HCI packet: its type and the bytes after the H4 indicator (header included).
public struct HCIPacket: Sendable, Hashable {
    public var type: H4PacketType
    /// Header + parameters/data, without the H4 type byte.
    public var bytes: ArraySlice<UInt8>

    public init(type: H4PacketType, bytes: ArraySlice<UInt8>) {
        self.type = type
        self.bytes = bytes
    }

    public init(type: H4PacketType, bytes: [UInt8]) {
        self.init(type: type, bytes: bytes[...])
    }

    /// The packet as sent over H4: indicator byte, then the packet.
    public var h4Bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 1)
        out.append(type.rawValue)
        out.append(contentsOf: bytes)
        return out
    }

    /// Length of the packet header for the type (the part before the length-counted payload).
    public static func headerLength(_ type: H4PacketType) -> Int {
        switch type {
        case .command: return 3   // opcode(2) + parameter length(1)
        case .acl: return 4       // handle+flags(2) + data length(2)
        case .sco: return 3       // handle+flags(2) + data length(1)
        case .event: return 2     // event code(1) + parameter length(1)
        case .iso: return 4       // handle+flags(2) + data length(14 bits)
        }
    }

    /// Payload length announced by a complete header of `type`.
    public static func payloadLength(_ type: H4PacketType, header: ArraySlice<UInt8>) -> Int {
        let b = header.startIndex
        switch type {
        case .command: return Int(header[b + 2])
        case .acl: return Int(header[b + 2]) | Int(header[b + 3]) << 8
        case .sco: return Int(header[b + 2])
        case .event: return Int(header[b + 1])
        case .iso: return (Int(header[b + 2]) | Int(header[b + 3]) << 8) & 0x3fff
        }
    }
}
