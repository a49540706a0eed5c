import Wire

/// What a scripted controller says about itself during bring-up, and the answers to those
/// information commands (Core Spec v5.4 Vol 4, Part E, §7.4 and §7.8), built with the Wire
/// encoders.
///
/// One description serves every scripted controller of the project — the host tests'
/// FakeController, the run-session world, the TCP controller of the process tests, the
/// benchmarks' controller and the host fuzz harness — so that they differ only in what each is
/// for (fault injection, a model of the wire, speed), not in how a controller introduces
/// itself.
public struct ControllerProfile: Sendable {
    public var hciVersion: UInt8 = 0x09
    public var manufacturer: UInt16 = 0xFFFF
    public var publicAddress = BDAddress(string: "00:1B:DC:0F:AA:01") ?? .zero
    /// LE only: BR/EDR Not Supported (bit 37), LE Supported (Controller) (bit 38).
    public var lmpFeatures: UInt64 = 1 << 37 | 1 << 38
    /// Without LE Extended Advertising the host uses the legacy scan and create commands.
    public var leFeatures: LEFeatureSet = [.leEncryption]
    public var supportedCommands = [UInt8](repeating: 0xFF, count: 64)
    /// LE Read Buffer Size; with 0 the host falls back to Read Buffer Size (§4.1.1).
    public var leBufferLength: UInt16 = 251
    public var leBufferCount: UInt8 = 8
    public var sharedBufferLength: UInt16 = 310
    public var sharedBufferCount: UInt16 = 10
    /// Every state combination allowed.
    public var leStates = LESupportedStates(rawValue: 0x0000_03FF_FFFF_FFFF)
    public var filterAcceptListSize: UInt8 = 16

    public init() {}

    /// The Command Complete a controller gives to one of bring-up's information commands;
    /// nil for every other command (the caller's own script answers those).
    public func answer(_ opcode: HCIOpcode, credits: UInt8 = 1) -> HCIEvent? {
        let parameters: [UInt8]
        switch opcode {
        case .readLocalVersionInformation:
            parameters = ReadLocalVersionInformation.ReturnParameters(
                hciVersion: hciVersion, hciSubversion: 0x0001, lmpVersion: hciVersion,
                companyIdentifier: manufacturer, lmpSubversion: 0x0002).encoded
        case .readLocalSupportedCommands:
            parameters = ReadLocalSupportedCommands.ReturnParameters(
                supportedCommands: HCISupportedCommands(octets: supportedCommands)).encoded
        case .readLocalSupportedFeatures:
            parameters = ReadLocalSupportedFeatures.ReturnParameters(lmpFeatures: lmpFeatures).encoded
        case .readBDADDR:
            parameters = ReadBDADDR.ReturnParameters(bdAddress: publicAddress).encoded
        case .leReadLocalSupportedFeatures:
            parameters = LEReadLocalSupportedFeatures.ReturnParameters(leFeatures: leFeatures).encoded
        case .leReadBufferSize:
            parameters = LEReadBufferSize.ReturnParameters(leACLDataPacketLength: leBufferLength,
                                                           totalNumLEACLDataPackets: leBufferCount).encoded
        case .readBufferSize:
            parameters = ReadBufferSize.ReturnParameters(aclDataPacketLength: sharedBufferLength, synchronousDataPacketLength: 0,
                                                         totalNumACLDataPackets: sharedBufferCount,
                                                         totalNumSynchronousDataPackets: 0).encoded
        case .leReadSupportedStates:
            parameters = LEReadSupportedStates.ReturnParameters(leStates: leStates).encoded
        case .leReadFilterAcceptListSize:
            parameters = LEReadFilterAcceptListSize.ReturnParameters(filterAcceptListSize: filterAcceptListSize).encoded
        default:
            return nil
        }
        return .commandComplete(CommandCompleteEvent(numHCICommandPackets: credits, commandOpcode: opcode,
                                                     returnParameters: parameters))
    }

    /// The peer an LE Create Connection or LE Extended Create Connection asks for; nil for
    /// other commands and for parameters that do not decode.
    /// Whether LE (Extended) Create Connection uses the Filter Accept List
    /// (Initiator_Filter_Policy 1).
    public static func createUsesAcceptList(_ command: HCICommandPacket) -> Bool {
        switch command.opcode {
        case .leCreateConnection:
            return (try? command.decode(LECreateConnection.self))?.initiatorFilterPolicy == .filterAcceptList
        case .leExtendedCreateConnection:
            return (try? command.decode(LEExtendedCreateConnection.self))?.initiatorFilterPolicy == .filterAcceptList
        default:
            return false
        }
    }

    public static func createTarget(_ command: HCICommandPacket) -> DeviceAddress? {
        switch command.opcode {
        case .leCreateConnection:
            return (try? command.decode(LECreateConnection.self)).map { DeviceAddress($0.peerAddress, type: $0.peerAddressType) }
        case .leExtendedCreateConnection:
            return (try? command.decode(LEExtendedCreateConnection.self)).map { DeviceAddress($0.peerAddress, type: $0.peerAddressType) }
        default:
            return nil
        }
    }
}
