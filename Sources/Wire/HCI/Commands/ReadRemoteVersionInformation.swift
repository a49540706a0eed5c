/// HCI_Read_Remote_Version_Information (Core Spec v5.4 Vol 4, Part E, §7.1.23): asks the peer
/// for its Core version and company. Answered with Command Status; Read Remote Version
/// Information Complete follows.
public struct ReadRemoteVersionInformation: HCIConnectionHandleCommand, Hashable {
    public typealias ReturnParameters = NoReturnParameters
    public static let opcode = HCIOpcode.readRemoteVersionInformation
    public static let completesWithStatus = true

    public var connectionHandle: UInt16

    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
}
