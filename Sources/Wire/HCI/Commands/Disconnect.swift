/// HCI_Disconnect (Core Spec v5.4 Vol 4, Part E, §7.1.6): ends a link. Answered with Command
/// Status; Disconnection Complete follows. The Reason is an error code, usually Remote User
/// Terminated Connection (0x13).
public struct Disconnect: HCICommand, Hashable {
    public typealias ReturnParameters = NoReturnParameters
    public static let opcode = HCIOpcode.disconnect
    public static let completesWithStatus = true

    public var connectionHandle: UInt16
    public var reason: HCIStatus

    public init(connectionHandle: UInt16, reason: HCIStatus = .remoteUserTerminatedConnection) {
        self.connectionHandle = connectionHandle
        self.reason = reason
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        connectionHandle = try r.u16("Connection_Handle")
        reason = HCIStatus(rawValue: try r.u8("Reason"))
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8(reason.rawValue)
    }

    public var summary: String { "handle " + HCICommandFormat.handle(connectionHandle) + " " + reason.name }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Handle", HCICommandFormat.handle(connectionHandle))
        fields.add("Reason", reason.description)
    }
}
