// Error codes of Core Spec v5.4 Vol 1, Part F, §1.3 by their spec names. The same codes are
// the Reason of Disconnect and Disconnection Complete, so one table serves both.

extension HCIStatus {
    public static let unknownHCICommand = HCIStatus(rawValue: 0x01)
    public static let unknownConnectionIdentifier = HCIStatus(rawValue: 0x02)
    public static let hardwareFailure = HCIStatus(rawValue: 0x03)
    public static let pageTimeout = HCIStatus(rawValue: 0x04)
    public static let authenticationFailure = HCIStatus(rawValue: 0x05)
    public static let pinOrKeyMissing = HCIStatus(rawValue: 0x06)
    public static let memoryCapacityExceeded = HCIStatus(rawValue: 0x07)
    public static let connectionTimeout = HCIStatus(rawValue: 0x08)
    public static let connectionLimitExceeded = HCIStatus(rawValue: 0x09)
    public static let connectionAlreadyExists = HCIStatus(rawValue: 0x0B)
    public static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    public static let connectionRejectedLimitedResources = HCIStatus(rawValue: 0x0D)
    public static let connectionRejectedSecurityReasons = HCIStatus(rawValue: 0x0E)
    public static let connectionRejectedUnacceptableBDADDR = HCIStatus(rawValue: 0x0F)
    public static let connectionAcceptTimeoutExceeded = HCIStatus(rawValue: 0x10)
    public static let unsupportedFeatureOrParameterValue = HCIStatus(rawValue: 0x11)
    public static let invalidHCICommandParameters = HCIStatus(rawValue: 0x12)
    public static let remoteUserTerminatedConnection = HCIStatus(rawValue: 0x13)
    public static let remoteDeviceTerminatedConnectionLowResources = HCIStatus(rawValue: 0x14)
    public static let remoteDeviceTerminatedConnectionPowerOff = HCIStatus(rawValue: 0x15)
    public static let connectionTerminatedByLocalHost = HCIStatus(rawValue: 0x16)
    public static let repeatedAttempts = HCIStatus(rawValue: 0x17)
    public static let pairingNotAllowed = HCIStatus(rawValue: 0x18)
    public static let unsupportedRemoteFeature = HCIStatus(rawValue: 0x1A)
    public static let invalidLLParameters = HCIStatus(rawValue: 0x1E)
    public static let unspecifiedError = HCIStatus(rawValue: 0x1F)
    public static let unsupportedLLParameterValue = HCIStatus(rawValue: 0x20)
    public static let llResponseTimeout = HCIStatus(rawValue: 0x22)
    public static let llProcedureCollision = HCIStatus(rawValue: 0x23)
    public static let encryptionModeNotAcceptable = HCIStatus(rawValue: 0x25)
    public static let instantPassed = HCIStatus(rawValue: 0x28)
    public static let differentTransactionCollision = HCIStatus(rawValue: 0x2A)
    public static let insufficientSecurity = HCIStatus(rawValue: 0x2F)
    public static let parameterOutOfMandatoryRange = HCIStatus(rawValue: 0x30)
    public static let controllerBusy = HCIStatus(rawValue: 0x3A)
    public static let unacceptableConnectionParameters = HCIStatus(rawValue: 0x3B)
    public static let advertisingTimeout = HCIStatus(rawValue: 0x3C)
    public static let connectionTerminatedDueToMICFailure = HCIStatus(rawValue: 0x3D)
    public static let connectionFailedToBeEstablished = HCIStatus(rawValue: 0x3E)
    public static let unknownAdvertisingIdentifier = HCIStatus(rawValue: 0x42)
    public static let limitReached = HCIStatus(rawValue: 0x43)
    public static let operationCancelledByHost = HCIStatus(rawValue: 0x44)
    public static let packetTooLong = HCIStatus(rawValue: 0x45)

    /// The spec name, or nil for a code this table does not know (reserved or newer).
    public var specName: String? {
        switch rawValue {
        case 0x00: return "Success"
        case 0x01: return "Unknown HCI Command"
        case 0x02: return "Unknown Connection Identifier"
        case 0x03: return "Hardware Failure"
        case 0x04: return "Page Timeout"
        case 0x05: return "Authentication Failure"
        case 0x06: return "PIN or Key Missing"
        case 0x07: return "Memory Capacity Exceeded"
        case 0x08: return "Connection Timeout"
        case 0x09: return "Connection Limit Exceeded"
        case 0x0A: return "Synchronous Connection Limit To A Device Exceeded"
        case 0x0B: return "Connection Already Exists"
        case 0x0C: return "Command Disallowed"
        case 0x0D: return "Connection Rejected due to Limited Resources"
        case 0x0E: return "Connection Rejected Due To Security Reasons"
        case 0x0F: return "Connection Rejected due to Unacceptable BD_ADDR"
        case 0x10: return "Connection Accept Timeout Exceeded"
        case 0x11: return "Unsupported Feature or Parameter Value"
        case 0x12: return "Invalid HCI Command Parameters"
        case 0x13: return "Remote User Terminated Connection"
        case 0x14: return "Remote Device Terminated Connection due to Low Resources"
        case 0x15: return "Remote Device Terminated Connection due to Power Off"
        case 0x16: return "Connection Terminated By Local Host"
        case 0x17: return "Repeated Attempts"
        case 0x18: return "Pairing Not Allowed"
        case 0x19: return "Unknown LMP PDU"
        case 0x1A: return "Unsupported Remote Feature"
        case 0x1B: return "SCO Offset Rejected"
        case 0x1C: return "SCO Interval Rejected"
        case 0x1D: return "SCO Air Mode Rejected"
        case 0x1E: return "Invalid LMP Parameters / Invalid LL Parameters"
        case 0x1F: return "Unspecified Error"
        case 0x20: return "Unsupported LMP Parameter Value / Unsupported LL Parameter Value"
        case 0x21: return "Role Change Not Allowed"
        case 0x22: return "LMP Response Timeout / LL Response Timeout"
        case 0x23: return "LMP Error Transaction Collision / LL Procedure Collision"
        case 0x24: return "LMP PDU Not Allowed"
        case 0x25: return "Encryption Mode Not Acceptable"
        case 0x26: return "Link Key cannot be Changed"
        case 0x27: return "Requested QoS Not Supported"
        case 0x28: return "Instant Passed"
        case 0x29: return "Pairing With Unit Key Not Supported"
        case 0x2A: return "Different Transaction Collision"
        case 0x2C: return "QoS Unacceptable Parameter"
        case 0x2D: return "QoS Rejected"
        case 0x2E: return "Channel Classification Not Supported"
        case 0x2F: return "Insufficient Security"
        case 0x30: return "Parameter Out Of Mandatory Range"
        case 0x32: return "Role Switch Pending"
        case 0x34: return "Reserved Slot Violation"
        case 0x35: return "Role Switch Failed"
        case 0x36: return "Extended Inquiry Response Too Large"
        case 0x37: return "Secure Simple Pairing Not Supported By Host"
        case 0x38: return "Host Busy - Pairing"
        case 0x39: return "Connection Rejected due to No Suitable Channel Found"
        case 0x3A: return "Controller Busy"
        case 0x3B: return "Unacceptable Connection Parameters"
        case 0x3C: return "Advertising Timeout"
        case 0x3D: return "Connection Terminated due to MIC Failure"
        case 0x3E: return "Connection Failed to be Established / Synchronization Timeout"
        case 0x3F: return "Previously Used"
        case 0x40: return "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging"
        case 0x41: return "Type0 Submap Not Defined"
        case 0x42: return "Unknown Advertising Identifier"
        case 0x43: return "Limit Reached"
        case 0x44: return "Operation Cancelled by Host"
        case 0x45: return "Packet Too Long"
        default: return nil
        }
    }

    /// The spec name, or `Reserved 0x2B` for a code without one.
    public var name: String {
        specName ?? ("Reserved " + Hex.number(rawValue, width: 2))
    }

    /// What a user can do about the codes a BLE central meets most; nil for the others.
    /// Written for people, not for the state machines (those switch on the code).
    public var hint: String? {
        switch rawValue {
        case 0x01:
            return "the controller does not implement this command; check Read Local Supported Commands and use the older variant"
        case 0x02:
            return "the connection handle no longer exists (link already gone, or a pending LE Create Connection was cancelled)"
        case 0x03:
            return "the controller reported a hardware fault; reset or replug the adapter"
        case 0x05, 0x06:
            return "the keys of the bond do not match; remove the bond on both sides and pair again"
        case 0x07, 0x0D:
            return "the controller ran out of resources; close other links or stop advertising/scanning and retry"
        case 0x08:
            return "the peer stopped answering (out of range, powered off or asleep); move closer and reconnect"
        case 0x09:
            return "the controller has no room for another link; disconnect one first"
        case 0x0B:
            return "a link to this device already exists; reuse it"
        case 0x0C:
            return "not allowed in the controller's current state (another connect pending, or scanning while initiating); wait or stop scanning, then retry"
        case 0x10:
            return "the connection attempt timed out; retry while the peripheral is advertising"
        case 0x11, 0x12, 0x30:
            return "the controller rejected a parameter value; check intervals, timeouts and PHYs against its features"
        case 0x13:
            return "the peer closed the link"
        case 0x14, 0x15:
            return "the peer closed the link (low resources or power off); reconnect later"
        case 0x16:
            return "this host closed the link"
        case 0x1A, 0x20:
            return "the peer does not support the requested procedure or value; continue without it"
        case 0x22:
            return "the peer did not answer a link-layer procedure in time; reconnect"
        case 0x23, 0x2A:
            return "both sides started a link-layer procedure at once; retry it"
        case 0x28:
            return "a connection update or PHY change came too late for its instant; the link was lost, reconnect"
        case 0x3A:
            return "the controller is busy; retry shortly"
        case 0x3B:
            return "the peer refused the connection parameters; use ones from its preferred range"
        case 0x3D:
            return "decryption failed (MIC failure); remove the bond and pair again"
        case 0x3E:
            return "the connection was never established: the peer did not answer the connect request; check it is advertising and in range, then retry"
        default:
            return nil
        }
    }
}

extension HCIStatus: CustomStringConvertible {
    /// `Command Disallowed (0x0C)`, the form btmon prints.
    public var description: String { name + " (" + Hex.number(rawValue, width: 2) + ")" }
}
