import Wire

/// The commands of bring-up, in the order they are sent (Docs/host-core.md).
enum BringUpStep: Int, Sendable, CaseIterable, Comparable {
    case reset
    case readLocalVersionInformation
    case readLocalSupportedCommands
    case readLocalSupportedFeatures
    case readBDADDR
    case leReadLocalSupportedFeatures
    case leReadBufferSize
    /// Only when LE Read Buffer Size says LE shares the BR/EDR buffers (length or count 0).
    case readBufferSize
    case leReadSupportedStates
    case leReadFilterAcceptListSize
    case setEventMask
    /// Only on dual-mode controllers that list it: the host must say it does LE (§7.3.79).
    case writeLEHostSupport
    case leSetEventMask
    /// Only with a random static own address.
    case leSetRandomAddress

    static func < (l: BringUpStep, r: BringUpStep) -> Bool { l.rawValue < r.rawValue }

    /// Steps whose failure does not stop bring-up: what they read is information (or a
    /// nicety), and odd controllers answer some of them with Unknown HCI Command although
    /// their Supported Commands list them.
    var isOptional: Bool {
        switch self {
        case .readLocalVersionInformation, .readLocalSupportedCommands, .readLocalSupportedFeatures,
             .readBDADDR, .leReadLocalSupportedFeatures, .leReadSupportedStates,
             .leReadFilterAcceptListSize, .writeLEHostSupport:
            return true
        case .reset, .leReadBufferSize, .readBufferSize, .setEventMask, .leSetEventMask, .leSetRandomAddress:
            return false
        }
    }
}

/// Controller bring-up (Reset … LE Set Random Address): sends one command at a time, learns
/// the controller's facts into `ControllerInfo`, and says when the controller is ready.
struct ControllerBringUp: Sendable {
    enum Outcome: Sendable {
        case next(BringUpStep)
        case ready(ControllerInfo)
        case failed(HostError)
    }

    /// Events the host handles (Core Spec v5.4 Vol 4, Part E, §7.3.1): Disconnection Complete,
    /// Encryption Change [v1], Read Remote Version Information Complete, Hardware Error, Data
    /// Buffer Overflow, Encryption Key Refresh Complete, LE Meta. (Command Complete/Status and
    /// Number Of Completed Packets cannot be masked.)
    static let eventCodes: [UInt8] = [0x05, 0x08, 0x0C, 0x10, 0x1A, 0x30, 0x3E]

    /// LE subevents the host handles (§7.8.1): LE Connection Complete, LE Advertising Report,
    /// LE Connection Update Complete, LE Read Remote Features Complete, LE Long Term Key
    /// Request (refused: rtstack is central), LE Data Length Change, LE Enhanced Connection
    /// Complete [v1], LE PHY Update Complete, LE Extended Advertising Report, LE Channel
    /// Selection Algorithm.
    static let leSubeventCodes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x0A, 0x0C, 0x0D, 0x14]

    let ownAddress: HostConfiguration.OwnAddress
    /// The address LE Set Random Address sets: the static one, or the private one the host
    /// made for this bring-up; nil for the public address (or an RPA without IRK or crypto).
    let randomAddress: BDAddress?
    let aclLimits: ACLLimits?
    private(set) var info = ControllerInfo()
    /// The Supported Commands bitmap once read in full; nil before (or when the controller
    /// would not say), in which case every optional command is tried.
    private(set) var supportedCommands: HCISupportedCommands?
    private var sharedBuffersNeeded = false
    private var leBuffer = ACLLimits(dataLength: 0, packetCount: 0)
    private var sharedBuffer = ACLLimits(dataLength: 0, packetCount: 0)

    init(configuration: HostConfiguration, resolvablePrivateAddress: BDAddress? = nil) {
        ownAddress = configuration.ownAddress
        switch configuration.ownAddress {
        case let .randomStatic(address): randomAddress = address
        case .resolvablePrivate: randomAddress = resolvablePrivateAddress
        case .publicAddress: randomAddress = nil
        }
        aclLimits = configuration.aclLimits
    }

    static let firstStep = BringUpStep.reset

    /// Whether the step is sent at all, given what is known so far.
    func applies(_ step: BringUpStep) -> Bool {
        switch step {
        case .readBufferSize:
            return sharedBuffersNeeded
        case .writeLEHostSupport:
            // LE-only controllers (BR/EDR Not Supported, LMP feature bit 37) need nothing.
            return listed(step) == true && info.lmpFeatures & (1 << 37) == 0
        case .leSetRandomAddress:
            return randomAddress != nil
        default:
            return !step.isOptional || listed(step) != false
        }
    }

    /// Whether Supported Commands lists the step's command; nil when unknown.
    private func listed(_ step: BringUpStep) -> Bool? {
        guard let bitmap = supportedCommands else { return nil }
        return bitmap.supports(ControllerBringUp.opcode(of: step))
    }

    func nextStep(after step: BringUpStep) -> BringUpStep? {
        var raw = step.rawValue + 1
        while let s = BringUpStep(rawValue: raw) {
            if applies(s) { return s }
            raw += 1
        }
        return nil
    }

    static func opcode(of step: BringUpStep) -> HCIOpcode {
        switch step {
        case .reset: return Reset.opcode
        case .readLocalVersionInformation: return ReadLocalVersionInformation.opcode
        case .readLocalSupportedCommands: return ReadLocalSupportedCommands.opcode
        case .readLocalSupportedFeatures: return ReadLocalSupportedFeatures.opcode
        case .readBDADDR: return ReadBDADDR.opcode
        case .leReadLocalSupportedFeatures: return LEReadLocalSupportedFeatures.opcode
        case .leReadBufferSize: return LEReadBufferSize.opcode
        case .readBufferSize: return ReadBufferSize.opcode
        case .leReadSupportedStates: return LEReadSupportedStates.opcode
        case .leReadFilterAcceptListSize: return LEReadFilterAcceptListSize.opcode
        case .setEventMask: return SetEventMask.opcode
        case .writeLEHostSupport: return WriteLEHostSupport.opcode
        case .leSetEventMask: return LESetEventMask.opcode
        case .leSetRandomAddress: return LESetRandomAddress.opcode
        }
    }

    /// The command packet of a step.
    func packet(for step: BringUpStep) -> HCIPacket {
        switch step {
        case .reset: return Reset().packet
        case .readLocalVersionInformation: return ReadLocalVersionInformation().packet
        case .readLocalSupportedCommands: return ReadLocalSupportedCommands().packet
        case .readLocalSupportedFeatures: return ReadLocalSupportedFeatures().packet
        case .readBDADDR: return ReadBDADDR().packet
        case .leReadLocalSupportedFeatures: return LEReadLocalSupportedFeatures().packet
        case .leReadBufferSize: return LEReadBufferSize().packet
        case .readBufferSize: return ReadBufferSize().packet
        case .leReadSupportedStates: return LEReadSupportedStates().packet
        case .leReadFilterAcceptListSize: return LEReadFilterAcceptListSize().packet
        case .setEventMask: return SetEventMask(enabling: ControllerBringUp.eventCodes).packet
        case .writeLEHostSupport: return WriteLEHostSupport(leSupportedHost: true).packet
        case .leSetEventMask: return LESetEventMask(enabling: ControllerBringUp.leSubeventCodes).packet
        case .leSetRandomAddress:
            return LESetRandomAddress(randomAddress: randomAddress ?? .zero).packet
        }
    }

    /// Takes the answer of `step`; `warning` tells about an optional step that failed.
    mutating func handle(step: BringUpStep, status: HCIStatus,
                         returnParameters: ArraySlice<UInt8>) -> (Outcome, HostWarning?) {
        let opcode = ControllerBringUp.opcode(of: step)
        var warning: HostWarning?
        if !status.isSuccess {
            if step == .leReadBufferSize {
                // Not fatal: the shared buffers of Read Buffer Size serve LE too.
                sharedBuffersNeeded = true
                warning = HostWarning("bring-up: \(opcode.name) failed with \(status); using Read Buffer Size")
            } else if step.isOptional {
                warning = HostWarning("bring-up: optional \(opcode.name) failed with \(status); continuing",
                                      bytes: Array(returnParameters))
            } else {
                return (.failed(.commandFailed(opcode, status)), nil)
            }
        } else {
            do {
                try learn(step: step, from: returnParameters)
            } catch {
                if step.isOptional {
                    warning = HostWarning("bring-up: \(opcode.name) answer unreadable: \(error)",
                                          bytes: Array(returnParameters))
                } else {
                    return (.failed(.protocolViolation("\(opcode.name) answer unreadable: \(error)")), nil)
                }
            }
        }
        if let next = nextStep(after: step) { return (.next(next), warning) }
        return (finish(), warning)
    }

    private mutating func learn(step: BringUpStep, from p: ArraySlice<UInt8>) throws(WireError) {
        switch step {
        case .readLocalVersionInformation:
            let r = try ReadLocalVersionInformation.ReturnParameters(bytes: p)
            info.hciVersion = r.hciVersion
            info.hciSubversion = r.hciSubversion
            info.lmpVersion = r.lmpVersion
            info.manufacturer = r.companyIdentifier
            info.lmpSubversion = r.lmpSubversion
        case .readLocalSupportedCommands:
            let r = try ReadLocalSupportedCommands.ReturnParameters(bytes: p)
            info.supportedCommands = Array(r.supportedCommands.octets)
            supportedCommands = HCISupportedCommands(octets: info.supportedCommands)
        case .readLocalSupportedFeatures:
            info.lmpFeatures = try ReadLocalSupportedFeatures.ReturnParameters(bytes: p).lmpFeatures
        case .readBDADDR:
            info.publicAddress = try ReadBDADDR.ReturnParameters(bytes: p).bdAddress
        case .leReadLocalSupportedFeatures:
            info.leFeatures = try LEReadLocalSupportedFeatures.ReturnParameters(bytes: p).leFeatures.rawValue
        case .leReadBufferSize:
            let r = try LEReadBufferSize.ReturnParameters(bytes: p)
            leBuffer = ACLLimits(dataLength: Int(r.leACLDataPacketLength), packetCount: Int(r.totalNumLEACLDataPackets))
            // Vol 4, Part E, §7.8.2: 0 means "use the buffers of Read Buffer Size".
            sharedBuffersNeeded = leBuffer.dataLength == 0 || leBuffer.packetCount == 0
        case .readBufferSize:
            let r = try ReadBufferSize.ReturnParameters(bytes: p)
            sharedBuffer = ACLLimits(dataLength: Int(r.aclDataPacketLength), packetCount: Int(r.totalNumACLDataPackets))
        case .leReadSupportedStates:
            info.leStates = try LEReadSupportedStates.ReturnParameters(bytes: p).leStates.rawValue
        case .leReadFilterAcceptListSize:
            info.filterAcceptListSize = Int(try LEReadFilterAcceptListSize.ReturnParameters(bytes: p).filterAcceptListSize)
        case .reset, .setEventMask, .writeLEHostSupport, .leSetEventMask, .leSetRandomAddress:
            break
        }
    }

    private mutating func finish() -> Outcome {
        let limits = aclLimits ?? (sharedBuffersNeeded ? sharedBuffer : leBuffer)
        guard limits.dataLength > 0, limits.packetCount > 0 else {
            return .failed(.controller("the controller reports no ACL buffers (length \(limits.dataLength), count \(limits.packetCount))"))
        }
        info.aclDataLength = limits.dataLength
        info.aclPacketCount = limits.packetCount
        switch ownAddress {
        case let .randomStatic(address):
            info.ownAddress = DeviceAddress(address, type: .randomDevice)
        case .resolvablePrivate:
            guard let address = randomAddress else {
                return .failed(.invalidState("a resolvable private own address needs the local IRK (security.pairing.localIdentity) and crypto (security.crypto)"))
            }
            info.ownAddress = DeviceAddress(address, type: .randomDevice)
        case .publicAddress:
            guard info.publicAddress != .zero else {
                return .failed(.invalidState("the controller has no public address; configure a random static own address"))
            }
            info.ownAddress = DeviceAddress(info.publicAddress, type: .publicDevice)
        }
        return .ready(info)
    }
}
