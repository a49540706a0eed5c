/// Something a reader passed over on purpose: a record or block that holds no HCI packet.
/// Notes are not errors; they let a caller account for every byte of the file.
public struct CaptureNote: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// A btsnoop 2001 (Linux monitor) record whose opcode carries no HCI packet
        /// (New Index, Open Index, System Note, User Logging, …).
        case monitorRecord(opcode: UInt16, adapterIndex: UInt16)
        /// A pcapng block other than SHB, IDB, EPB, SPB and PB (NRB, ISB, custom, …).
        case pcapngBlock(type: UInt32, length: UInt32)
    }

    /// Where the record or block starts in the file.
    public var fileOffset: Int
    public var kind: Kind
    /// The whole frame of a monitor record (time and payload too), so that a decoder can show
    /// New Index, System Note and the others where they happened.
    public var monitorFrame: MonitorFrame?

    public init(fileOffset: Int, kind: Kind, monitorFrame: MonitorFrame? = nil) {
        self.fileOffset = fileOffset
        self.kind = kind
        self.monitorFrame = monitorFrame
    }

    public var description: String {
        switch kind {
        case let .monitorRecord(opcode, adapterIndex):
            return "offset \(fileOffset): skipped monitor record \(BtsnoopFormat.monitorOpcodeName(opcode)) "
                + "(opcode \(opcode)) for hci\(adapterIndex)"
        case let .pcapngBlock(type, length):
            return "offset \(fileOffset): skipped pcapng \(PcapngFormat.blockTypeName(type)) "
                + "(type 0x\(String(type, radix: 16)), \(length) bytes)"
        }
    }
}
