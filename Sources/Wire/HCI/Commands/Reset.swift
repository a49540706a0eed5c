/// HCI_Reset (Core Spec v5.4 Vol 4, Part E, §7.3.2): returns the controller to its power-on
/// state; the first command of every bring-up.
public struct Reset: HCICommandWithoutParameters, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.reset
    public init() {}
}
