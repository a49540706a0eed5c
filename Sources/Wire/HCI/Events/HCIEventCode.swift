/// HCI event code (Core Spec v5.4 Vol 4, Part E, §7.7). Kept as a raw value so that codes
/// newer than this table, and vendor events, still decode and round-trip.
public struct HCIEventCode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let inquiryComplete = HCIEventCode(0x01)
    public static let inquiryResult = HCIEventCode(0x02)
    public static let connectionComplete = HCIEventCode(0x03)
    public static let connectionRequest = HCIEventCode(0x04)
    public static let disconnectionComplete = HCIEventCode(0x05)
    public static let authenticationComplete = HCIEventCode(0x06)
    public static let remoteNameRequestComplete = HCIEventCode(0x07)
    public static let encryptionChangeV1 = HCIEventCode(0x08)
    public static let changeConnectionLinkKeyComplete = HCIEventCode(0x09)
    public static let linkKeyTypeChanged = HCIEventCode(0x0A)
    public static let readRemoteSupportedFeaturesComplete = HCIEventCode(0x0B)
    public static let readRemoteVersionInformationComplete = HCIEventCode(0x0C)
    public static let qosSetupComplete = HCIEventCode(0x0D)
    public static let commandComplete = HCIEventCode(0x0E)
    public static let commandStatus = HCIEventCode(0x0F)
    public static let hardwareError = HCIEventCode(0x10)
    public static let flushOccurred = HCIEventCode(0x11)
    public static let roleChange = HCIEventCode(0x12)
    public static let numberOfCompletedPackets = HCIEventCode(0x13)
    public static let modeChange = HCIEventCode(0x14)
    public static let returnLinkKeys = HCIEventCode(0x15)
    public static let pinCodeRequest = HCIEventCode(0x16)
    public static let linkKeyRequest = HCIEventCode(0x17)
    public static let linkKeyNotification = HCIEventCode(0x18)
    public static let loopbackCommand = HCIEventCode(0x19)
    public static let dataBufferOverflow = HCIEventCode(0x1A)
    public static let maxSlotsChange = HCIEventCode(0x1B)
    public static let readClockOffsetComplete = HCIEventCode(0x1C)
    public static let connectionPacketTypeChanged = HCIEventCode(0x1D)
    public static let qosViolation = HCIEventCode(0x1E)
    public static let pageScanRepetitionModeChange = HCIEventCode(0x20)
    public static let flowSpecificationComplete = HCIEventCode(0x21)
    public static let inquiryResultWithRSSI = HCIEventCode(0x22)
    public static let readRemoteExtendedFeaturesComplete = HCIEventCode(0x23)
    public static let synchronousConnectionComplete = HCIEventCode(0x2C)
    public static let synchronousConnectionChanged = HCIEventCode(0x2D)
    public static let sniffSubrating = HCIEventCode(0x2E)
    public static let extendedInquiryResult = HCIEventCode(0x2F)
    public static let encryptionKeyRefreshComplete = HCIEventCode(0x30)
    public static let ioCapabilityRequest = HCIEventCode(0x31)
    public static let ioCapabilityResponse = HCIEventCode(0x32)
    public static let userConfirmationRequest = HCIEventCode(0x33)
    public static let userPasskeyRequest = HCIEventCode(0x34)
    public static let remoteOOBDataRequest = HCIEventCode(0x35)
    public static let simplePairingComplete = HCIEventCode(0x36)
    public static let linkSupervisionTimeoutChanged = HCIEventCode(0x38)
    public static let enhancedFlushComplete = HCIEventCode(0x39)
    public static let userPasskeyNotification = HCIEventCode(0x3B)
    public static let keypressNotification = HCIEventCode(0x3C)
    public static let remoteHostSupportedFeaturesNotification = HCIEventCode(0x3D)
    public static let leMeta = HCIEventCode(0x3E)
    /// Removed with AMP in Core 5.3; still named so that older captures read well.
    public static let numberOfCompletedDataBlocks = HCIEventCode(0x48)
    public static let triggeredClockCapture = HCIEventCode(0x4E)
    public static let synchronizationTrainComplete = HCIEventCode(0x4F)
    public static let synchronizationTrainReceived = HCIEventCode(0x50)
    public static let connectionlessPeripheralBroadcastReceive = HCIEventCode(0x51)
    public static let connectionlessPeripheralBroadcastTimeout = HCIEventCode(0x52)
    public static let truncatedPageComplete = HCIEventCode(0x53)
    public static let peripheralPageResponseTimeout = HCIEventCode(0x54)
    public static let connectionlessPeripheralBroadcastChannelMapChange = HCIEventCode(0x55)
    public static let inquiryResponseNotification = HCIEventCode(0x56)
    public static let authenticatedPayloadTimeoutExpired = HCIEventCode(0x57)
    public static let samStatusChange = HCIEventCode(0x58)
    public static let encryptionChangeV2 = HCIEventCode(0x59)
    /// Reserved for Bluetooth logo testing (Vol 4, Part E, §5.4.4).
    public static let bluetoothLogoTesting = HCIEventCode(0xFE)
    /// Vendor-specific debug events; their parameters are the vendor's own.
    public static let vendor = HCIEventCode(0xFF)

    /// The event's name as the specification writes it (without "HCI_" and "event").
    public var name: String {
        switch rawValue {
        case 0x01: return "Inquiry Complete"
        case 0x02: return "Inquiry Result"
        case 0x03: return "Connection Complete"
        case 0x04: return "Connection Request"
        case 0x05: return "Disconnection Complete"
        case 0x06: return "Authentication Complete"
        case 0x07: return "Remote Name Request Complete"
        case 0x08: return "Encryption Change [v1]"
        case 0x09: return "Change Connection Link Key Complete"
        case 0x0A: return "Link Key Type Changed"
        case 0x0B: return "Read Remote Supported Features Complete"
        case 0x0C: return "Read Remote Version Information Complete"
        case 0x0D: return "QoS Setup Complete"
        case 0x0E: return "Command Complete"
        case 0x0F: return "Command Status"
        case 0x10: return "Hardware Error"
        case 0x11: return "Flush Occurred"
        case 0x12: return "Role Change"
        case 0x13: return "Number Of Completed Packets"
        case 0x14: return "Mode Change"
        case 0x15: return "Return Link Keys"
        case 0x16: return "PIN Code Request"
        case 0x17: return "Link Key Request"
        case 0x18: return "Link Key Notification"
        case 0x19: return "Loopback Command"
        case 0x1A: return "Data Buffer Overflow"
        case 0x1B: return "Max Slots Change"
        case 0x1C: return "Read Clock Offset Complete"
        case 0x1D: return "Connection Packet Type Changed"
        case 0x1E: return "QoS Violation"
        case 0x20: return "Page Scan Repetition Mode Change"
        case 0x21: return "Flow Specification Complete"
        case 0x22: return "Inquiry Result with RSSI"
        case 0x23: return "Read Remote Extended Features Complete"
        case 0x2C: return "Synchronous Connection Complete"
        case 0x2D: return "Synchronous Connection Changed"
        case 0x2E: return "Sniff Subrating"
        case 0x2F: return "Extended Inquiry Result"
        case 0x30: return "Encryption Key Refresh Complete"
        case 0x31: return "IO Capability Request"
        case 0x32: return "IO Capability Response"
        case 0x33: return "User Confirmation Request"
        case 0x34: return "User Passkey Request"
        case 0x35: return "Remote OOB Data Request"
        case 0x36: return "Simple Pairing Complete"
        case 0x38: return "Link Supervision Timeout Changed"
        case 0x39: return "Enhanced Flush Complete"
        case 0x3B: return "User Passkey Notification"
        case 0x3C: return "Keypress Notification"
        case 0x3D: return "Remote Host Supported Features Notification"
        case 0x3E: return "LE Meta"
        case 0x48: return "Number Of Completed Data Blocks"
        case 0x4E: return "Triggered Clock Capture"
        case 0x4F: return "Synchronization Train Complete"
        case 0x50: return "Synchronization Train Received"
        case 0x51: return "Connectionless Peripheral Broadcast Receive"
        case 0x52: return "Connectionless Peripheral Broadcast Timeout"
        case 0x53: return "Truncated Page Complete"
        case 0x54: return "Peripheral Page Response Timeout"
        case 0x55: return "Connectionless Peripheral Broadcast Channel Map Change"
        case 0x56: return "Inquiry Response Notification"
        case 0x57: return "Authenticated Payload Timeout Expired"
        case 0x58: return "SAM Status Change"
        case 0x59: return "Encryption Change [v2]"
        case 0xFE: return "Bluetooth Logo Testing"
        case 0xFF: return "Vendor"
        default: return "Unknown"
        }
    }

    /// `Command Complete (0x0E)`.
    public var description: String { EventFormat.named(name, rawValue) }

    public static func < (l: HCIEventCode, r: HCIEventCode) -> Bool { l.rawValue < r.rawValue }
}
