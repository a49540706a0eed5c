/// A management command as rtstack's kernel backend sends it on the HCI control channel
/// (BlueZ doc/mgmt-api, "Packet Structures"): Command_Code, Controller_Index, Parameter_Length
/// (2 octets each, little-endian), then the parameters.
public struct ManagementCommand: Hashable, Sendable, WireCodable {
    public var opcode: ManagementOpcode
    /// The adapter (`hciN` is index N); 0xFFFF for commands about no controller.
    public var index: UInt16
    public var parameters: [UInt8]

    public static let headerSize = 6
    public static let noController: UInt16 = 0xFFFF

    public init(opcode: ManagementOpcode, index: UInt16, parameters: [UInt8] = []) {
        self.opcode = opcode
        self.index = index
        self.parameters = parameters
    }

    public static func readControllerInformation(index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .readControllerInformation, index: index)
    }

    public static func setPowered(_ on: Bool, index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .setPowered, index: index, parameters: [on ? 1 : 0])
    }

    public static func setLowEnergy(_ on: Bool, index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .setLowEnergy, index: index, parameters: [on ? 1 : 0])
    }

    public static func startDiscovery(_ types: ManagementDiscoveryTypes, index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .startDiscovery, index: index, parameters: [types.rawValue])
    }

    public static func stopDiscovery(_ types: ManagementDiscoveryTypes, index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .stopDiscovery, index: index, parameters: [types.rawValue])
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        opcode = ManagementOpcode(rawValue: try reader.u16("Command_Code"))
        index = try reader.u16("Controller_Index")
        let length = Int(try reader.u16("Parameter_Length"))
        parameters = Array(try reader.bytes(length, "Parameters"))
    }

    /// Parameters longer than 65535 bytes cannot be framed; none of rtstack's commands come near.
    public func encode(into writer: inout ByteWriter) {
        writer.u16(opcode.rawValue)
        writer.u16(index)
        writer.u16(UInt16(truncatingIfNeeded: parameters.count))
        writer.append(parameters)
    }
}
