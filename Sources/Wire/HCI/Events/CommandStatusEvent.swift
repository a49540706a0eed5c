/// HCI_Command_Status (Vol 4, Part E, §7.7.15): a command was accepted (or refused) and its
/// result comes later in another event; also grants command credits.
public struct CommandStatusEvent: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var numHCICommandPackets: UInt8
    public var commandOpcode: HCIOpcode

    public init(status: HCIStatus = .success, numHCICommandPackets: UInt8 = 1, commandOpcode: HCIOpcode) {
        self.status = status
        self.numHCICommandPackets = numHCICommandPackets
        self.commandOpcode = commandOpcode
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = try r.eventStatus()
        numHCICommandPackets = try r.u8("Num_HCI_Command_Packets")
        commandOpcode = HCIOpcode(rawValue: try r.u16("Command_Opcode"))
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u8(numHCICommandPackets)
        w.u16(commandOpcode.rawValue)
    }

    public var summary: String {
        opcodeText(commandOpcode) + " status " + statusText(status) + " ncmd " + String(numHCICommandPackets)
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Status", statusText(status))
        f.add("Num HCI command packets", String(numHCICommandPackets))
        f.add("Command opcode", opcodeText(commandOpcode))
    }
}
