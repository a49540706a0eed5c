/// HCI_Command_Complete (Vol 4, Part E, §7.7.14): the answer to most commands, and the
/// controller's grant of command credits. The return parameters stay raw: their layout
/// depends on the opcode and is decoded by the command's own type.
public struct CommandCompleteEvent: WireCodable, FieldDescribing, Hashable {
    /// How many commands the host may now send (flow control, §4.4).
    public var numHCICommandPackets: UInt8
    /// The command this completes; 0x0000 only grants credits.
    public var commandOpcode: HCIOpcode
    public var returnParameters: ArraySlice<UInt8>

    public init(numHCICommandPackets: UInt8 = 1, commandOpcode: HCIOpcode, returnParameters: ArraySlice<UInt8> = []) {
        self.numHCICommandPackets = numHCICommandPackets
        self.commandOpcode = commandOpcode
        self.returnParameters = returnParameters
    }

    public init(numHCICommandPackets: UInt8 = 1, commandOpcode: HCIOpcode, returnParameters: [UInt8]) {
        self.init(numHCICommandPackets: numHCICommandPackets, commandOpcode: commandOpcode,
                  returnParameters: returnParameters[...])
    }

    /// Takes every byte left as return parameters: call it on the event's parameters only.
    public init(decoding r: inout ByteReader) throws(WireError) {
        numHCICommandPackets = try r.u8("Num_HCI_Command_Packets")
        commandOpcode = HCIOpcode(rawValue: try r.u16("Command_Opcode"))
        returnParameters = r.rest()
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(numHCICommandPackets)
        w.u16(commandOpcode.rawValue)
        w.append(returnParameters)
    }

    /// The Status most return parameters start with; nil when there are none.
    public var leadingStatus: HCIStatus? {
        returnParameters.first.map { HCIStatus(rawValue: $0) }
    }

    public var summary: String {
        var t = TextBuffer()
        appendSummary(to: &t)
        return t.string
    }

    public func appendSummary(to t: inout TextBuffer) {
        t.append(commandOpcode)
        t.append(" ncmd ")
        t.appendDecimal(Int(numHCICommandPackets))
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Num HCI command packets") { $0.appendDecimal(Int(numHCICommandPackets)) }
        f.add("Command opcode") { $0.append(commandOpcode) }
        f.add("Return parameters") { t in
            if returnParameters.isEmpty { t.append("none") } else { t.appendSpacedHex(returnParameters) }
        }
    }
}
