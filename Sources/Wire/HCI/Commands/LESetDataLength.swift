/// HCI_LE_Set_Data_Length (Core Spec v5.4 Vol 4, Part E, §7.8.33): asks the link layer to
/// send larger packets on a link (TX_Octets 0x001B–0x00FB, TX_Time 0x0148–0x4290 µs).
public struct LESetDataLength: HCICommand, Hashable {
    public typealias ReturnParameters = ConnectionHandleReturnParameters
    public static let opcode = HCIOpcode.leSetDataLength

    public var connectionHandle: UInt16
    public var txOctets: UInt16
    public var txTime: UInt16

    public init(connectionHandle: UInt16, txOctets: UInt16, txTime: UInt16) {
        self.connectionHandle = connectionHandle
        self.txOctets = txOctets
        self.txTime = txTime
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        connectionHandle = try r.u16("Connection_Handle")
        txOctets = try r.u16("TX_Octets")
        txTime = try r.u16("TX_Time")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u16(txOctets)
        w.u16(txTime)
    }

    public var summary: String {
        "handle " + HCICommandFormat.handle(connectionHandle) + " " + String(txOctets) + " octets " + String(txTime) + " µs"
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Handle", HCICommandFormat.handle(connectionHandle))
        fields.add("TX octets", String(txOctets))
        fields.add("TX time", String(txTime) + " µs (" + HCICommandFormat.hex(txTime) + ")")
    }
}
