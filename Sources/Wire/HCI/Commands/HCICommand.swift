/// A typed HCI command: its parameters (`WireCodable`) and the layout of what the controller
/// answers (Core Spec v5.4 Vol 4, Part E, §7).
///
/// Keeping the opcode and the answer's layout on the type lets the host send a value and
/// decode its Command Complete without a second table that could disagree with the first.
public protocol HCICommand: WireCodable, FieldDescribing {
    /// Return parameters carried by the Command Complete event. Commands that the controller
    /// answers with Command Status use `NoReturnParameters`.
    associatedtype ReturnParameters: WireCodable & FieldDescribing

    static var opcode: HCIOpcode { get }

    /// True for commands the controller acknowledges with a Command Status event and finishes
    /// later with an event of their own (LE Create Connection → LE Connection Complete, …).
    static var completesWithStatus: Bool { get }
}

extension HCICommand {
    public static var completesWithStatus: Bool { false }

    /// The command as an HCI command packet (opcode, length, parameters).
    public var packet: HCIPacket { HCICommandPacket.make(self) }
}

/// The answer of a command that the controller acknowledges with Command Status: there are no
/// return parameters (the status travels in the Command Status event itself).
public struct NoReturnParameters: WireCodable, FieldDescribing, Hashable {
    public init() {}
    public init(decoding reader: inout ByteReader) throws(WireError) {}
    public func encode(into writer: inout ByteWriter) {}
    public var summary: String { "" }
    public func describeFields(into fields: inout FieldList) {}
}

/// Return parameters that are only a Status (Reset, Set Event Mask, LE Set Scan Enable, …).
public struct StatusReturnParameters: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus

    public init(status: HCIStatus = .success) { self.status = status }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = HCIStatus(rawValue: try r.u8("Status"))
    }

    public func encode(into w: inout ByteWriter) { w.u8(status.rawValue) }

    public var summary: String { status.description }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Status", status.description)
    }
}

/// Return parameters of Status and Connection_Handle (LE Set Data Length, …).
///
/// A controller that fails the command may send only the Status; the handle then decodes as 0
/// and `isStatusOnly` is true (encoding writes the status alone again).
public struct ConnectionHandleReturnParameters: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var isStatusOnly: Bool

    public init(status: HCIStatus = .success, connectionHandle: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
        isStatusOnly = false
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = HCIStatus(rawValue: try r.u8("Status"))
        connectionHandle = 0
        isStatusOnly = !status.isSuccess && r.count < 2
        if isStatusOnly { return }
        connectionHandle = try r.u16("Connection_Handle")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        if isStatusOnly { return }
        w.u16(connectionHandle)
    }

    public var summary: String {
        isStatusOnly ? status.description : status.description + " handle " + Hex.number(connectionHandle, width: 4)
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Status", status.description)
        if isStatusOnly { return }
        fields.add("Handle", HCICommandFormat.handle(connectionHandle))
    }
}

/// A command without parameters (Reset, Read BD_ADDR, LE Create Connection Cancel, …): the
/// codec and the description are the same for all of them.
public protocol HCICommandWithoutParameters: HCICommand {
    init()
}

extension HCICommandWithoutParameters {
    public init(decoding reader: inout ByteReader) throws(WireError) { self.init() }
    public func encode(into writer: inout ByteWriter) {}
    public var summary: String { "" }
    public func describeFields(into fields: inout FieldList) {}
}

/// A command whose only parameter is a Connection_Handle (Read Remote Version Information, LE
/// Read Remote Features, Read Encryption Key Size, …): the codec and the description are the
/// same for all of them.
public protocol HCIConnectionHandleCommand: HCICommand {
    var connectionHandle: UInt16 { get }
    init(connectionHandle: UInt16)
}

extension HCIConnectionHandleCommand {
    public init(decoding r: inout ByteReader) throws(WireError) {
        self.init(connectionHandle: try r.u16("Connection_Handle"))
    }

    public func encode(into w: inout ByteWriter) { w.u16(connectionHandle) }

    public var summary: String { "handle " + HCICommandFormat.handle(connectionHandle) }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Handle", HCICommandFormat.handle(connectionHandle))
    }
}
