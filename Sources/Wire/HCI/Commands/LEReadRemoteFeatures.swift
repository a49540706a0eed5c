/// HCI_LE_Read_Remote_Features (Core Spec v5.4 Vol 4, Part E, §7.8.21): asks the peer's link
/// layer for its LE features. Answered with Command Status; LE Read Remote Features Complete
/// follows.
public struct LEReadRemoteFeatures: HCIConnectionHandleCommand, Hashable {
    public typealias ReturnParameters = NoReturnParameters
    public static let opcode = HCIOpcode.leReadRemoteFeatures
    public static let completesWithStatus = true

    public var connectionHandle: UInt16

    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
}
