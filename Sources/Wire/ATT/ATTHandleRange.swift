/// Starting Handle and Ending Handle of a discovery request (Core Spec v5.4 Vol 3, Part F,
/// §3.4.3.1, §3.4.4.1, §3.4.4.9).
public struct ATTHandleRange: Sendable, Hashable {
    public var startingHandle: UInt16
    public var endingHandle: UInt16

    public init(startingHandle: UInt16, endingHandle: UInt16) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
    }

    /// 0x0001–0xFFFF, the whole database.
    public static let all = ATTHandleRange(startingHandle: 0x0001, endingHandle: 0xFFFF)

    /// A server answers Invalid Handle to a range starting at 0 or running backwards (§3.4.3.1).
    public var isValid: Bool { startingHandle != 0 && startingHandle <= endingHandle }

    init(decoding reader: inout ByteReader) throws(WireError) {
        startingHandle = try reader.u16("Starting Handle")
        endingHandle = try reader.u16("Ending Handle")
    }

    func encode(into writer: inout ByteWriter) {
        writer.u16(startingHandle)
        writer.u16(endingHandle)
    }

    var text: String { L2CAPText.hex16(startingHandle) + "-" + L2CAPText.hex16(endingHandle) }
}
