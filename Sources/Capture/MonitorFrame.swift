import Wire

/// One frame of the Linux monitor channel, or one record of a btsnoop datalink 2001 file:
/// opcode, adapter index (`hciN`; 0xFFFF for frames about no adapter), time and payload.
///
/// On the socket every frame starts with a 6-octet header, all little-endian (struct
/// hci_mon_hdr): Opcode, Index, Length, then Length octets of payload.
public struct MonitorFrame: Sendable, Hashable {
    public static let headerLength = 6
    /// HCI_DEV_NONE: frames that belong to no adapter (system notes, user logging, control
    /// sockets not bound to one).
    public static let noAdapter: UInt16 = 0xFFFF

    public var opcode: MonitorOpcode
    public var adapterIndex: UInt16
    /// Microseconds since the Unix epoch.
    public var timestampMicros: Int64
    public var payload: ArraySlice<UInt8>

    public init(opcode: MonitorOpcode, adapterIndex: UInt16, timestampMicros: Int64, payload: ArraySlice<UInt8>) {
        self.opcode = opcode
        self.adapterIndex = adapterIndex
        self.timestampMicros = timestampMicros
        self.payload = payload
    }

    /// Splits what one read of the monitor socket returned. The Length field must match the
    /// payload that arrived exactly (the socket keeps frame boundaries).
    public init(socketBytes bytes: ArraySlice<UInt8>, timestampMicros: Int64) throws(WireError) {
        var r = ByteReader(bytes)
        opcode = MonitorOpcode(try r.u16("monitor Opcode"))
        adapterIndex = try r.u16("monitor Index")
        let length = Int(try r.u16("monitor Length"))
        payload = try r.bytes(length, "monitor payload")
        if !r.isAtEnd {
            throw WireError.malformed("monitor Length \(length) leaves \(r.count) octet(s) after the payload")
        }
        self.timestampMicros = timestampMicros
    }

    /// The HCI packet this frame carries, as a capture record (nil for the other opcodes).
    public var record: CaptureRecord? {
        guard let kind = opcode.hciPacket else { return nil }
        return CaptureRecord(timestampMicros: timestampMicros, direction: kind.direction,
                             packet: HCIPacket(type: kind.type, bytes: payload), adapterIndex: adapterIndex)
    }

    /// The frame that carries `record`'s HCI packet.
    public init(record: CaptureRecord) {
        self.init(opcode: .carrying(record.packet.type, record.direction), adapterIndex: record.adapterIndex,
                  timestampMicros: record.timestampMicros, payload: record.packet.bytes)
    }

    /// `hci0`, or `-` for frames about no adapter.
    public var adapterName: String {
        adapterIndex == Self.noAdapter ? "-" : "hci\(adapterIndex)"
    }
}
