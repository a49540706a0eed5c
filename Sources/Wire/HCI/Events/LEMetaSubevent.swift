/// Subevent code of an LE Meta event (Core Spec v5.4 Vol 4, Part E, §7.7.65). Every
/// subevent is named, decoded or not, so that a capture reads well; unknown codes keep their
/// value.
public struct LEMetaSubevent: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let connectionComplete = LEMetaSubevent(0x01)
    public static let advertisingReport = LEMetaSubevent(0x02)
    public static let connectionUpdateComplete = LEMetaSubevent(0x03)
    public static let readRemoteFeaturesComplete = LEMetaSubevent(0x04)
    public static let longTermKeyRequest = LEMetaSubevent(0x05)
    public static let remoteConnectionParameterRequest = LEMetaSubevent(0x06)
    public static let dataLengthChange = LEMetaSubevent(0x07)
    public static let readLocalP256PublicKeyComplete = LEMetaSubevent(0x08)
    public static let generateDHKeyComplete = LEMetaSubevent(0x09)
    public static let enhancedConnectionCompleteV1 = LEMetaSubevent(0x0A)
    public static let directedAdvertisingReport = LEMetaSubevent(0x0B)
    public static let phyUpdateComplete = LEMetaSubevent(0x0C)
    public static let extendedAdvertisingReport = LEMetaSubevent(0x0D)
    public static let periodicAdvertisingSyncEstablishedV1 = LEMetaSubevent(0x0E)
    public static let periodicAdvertisingReportV1 = LEMetaSubevent(0x0F)
    public static let periodicAdvertisingSyncLost = LEMetaSubevent(0x10)
    public static let scanTimeout = LEMetaSubevent(0x11)
    public static let advertisingSetTerminated = LEMetaSubevent(0x12)
    public static let scanRequestReceived = LEMetaSubevent(0x13)
    public static let channelSelectionAlgorithm = LEMetaSubevent(0x14)
    public static let connectionlessIQReport = LEMetaSubevent(0x15)
    public static let connectionIQReport = LEMetaSubevent(0x16)
    public static let cteRequestFailed = LEMetaSubevent(0x17)
    public static let periodicAdvertisingSyncTransferReceivedV1 = LEMetaSubevent(0x18)
    public static let cisEstablishedV1 = LEMetaSubevent(0x19)
    public static let cisRequest = LEMetaSubevent(0x1A)
    public static let createBIGComplete = LEMetaSubevent(0x1B)
    public static let terminateBIGComplete = LEMetaSubevent(0x1C)
    public static let bigSyncEstablished = LEMetaSubevent(0x1D)
    public static let bigSyncLost = LEMetaSubevent(0x1E)
    public static let requestPeerSCAComplete = LEMetaSubevent(0x1F)
    public static let pathLossThreshold = LEMetaSubevent(0x20)
    public static let transmitPowerReporting = LEMetaSubevent(0x21)
    public static let bigInfoAdvertisingReport = LEMetaSubevent(0x22)
    public static let subrateChange = LEMetaSubevent(0x23)
    public static let periodicAdvertisingSyncEstablishedV2 = LEMetaSubevent(0x24)
    public static let periodicAdvertisingReportV2 = LEMetaSubevent(0x25)
    public static let periodicAdvertisingSyncTransferReceivedV2 = LEMetaSubevent(0x26)
    public static let periodicAdvertisingSubeventDataRequest = LEMetaSubevent(0x27)
    public static let periodicAdvertisingResponseReport = LEMetaSubevent(0x28)
    public static let enhancedConnectionCompleteV2 = LEMetaSubevent(0x29)

    /// The subevent's name as the specification writes it (without "HCI_" and "event").
    /// Codes from 0x2A on are from Core 6.0, named so that newer controllers' traffic reads well.
    public var name: String {
        switch rawValue {
        case 0x01: return "LE Connection Complete"
        case 0x02: return "LE Advertising Report"
        case 0x03: return "LE Connection Update Complete"
        case 0x04: return "LE Read Remote Features Complete"
        case 0x05: return "LE Long Term Key Request"
        case 0x06: return "LE Remote Connection Parameter Request"
        case 0x07: return "LE Data Length Change"
        case 0x08: return "LE Read Local P-256 Public Key Complete"
        case 0x09: return "LE Generate DHKey Complete"
        case 0x0A: return "LE Enhanced Connection Complete [v1]"
        case 0x0B: return "LE Directed Advertising Report"
        case 0x0C: return "LE PHY Update Complete"
        case 0x0D: return "LE Extended Advertising Report"
        case 0x0E: return "LE Periodic Advertising Sync Established [v1]"
        case 0x0F: return "LE Periodic Advertising Report [v1]"
        case 0x10: return "LE Periodic Advertising Sync Lost"
        case 0x11: return "LE Scan Timeout"
        case 0x12: return "LE Advertising Set Terminated"
        case 0x13: return "LE Scan Request Received"
        case 0x14: return "LE Channel Selection Algorithm"
        case 0x15: return "LE Connectionless IQ Report"
        case 0x16: return "LE Connection IQ Report"
        case 0x17: return "LE CTE Request Failed"
        case 0x18: return "LE Periodic Advertising Sync Transfer Received [v1]"
        case 0x19: return "LE CIS Established [v1]"
        case 0x1A: return "LE CIS Request"
        case 0x1B: return "LE Create BIG Complete"
        case 0x1C: return "LE Terminate BIG Complete"
        case 0x1D: return "LE BIG Sync Established"
        case 0x1E: return "LE BIG Sync Lost"
        case 0x1F: return "LE Request Peer SCA Complete"
        case 0x20: return "LE Path Loss Threshold"
        case 0x21: return "LE Transmit Power Reporting"
        case 0x22: return "LE BIGInfo Advertising Report"
        case 0x23: return "LE Subrate Change"
        case 0x24: return "LE Periodic Advertising Sync Established [v2]"
        case 0x25: return "LE Periodic Advertising Report [v2]"
        case 0x26: return "LE Periodic Advertising Sync Transfer Received [v2]"
        case 0x27: return "LE Periodic Advertising Subevent Data Request"
        case 0x28: return "LE Periodic Advertising Response Report"
        case 0x29: return "LE Enhanced Connection Complete [v2]"
        case 0x2A: return "LE Read All Remote Features Complete"
        case 0x2B: return "LE CIS Established [v2]"
        case 0x2C: return "LE CS Read Remote Supported Capabilities Complete"
        case 0x2D: return "LE CS Read Remote FAE Table Complete"
        case 0x2E: return "LE CS Security Enable Complete"
        case 0x2F: return "LE CS Config Complete"
        case 0x30: return "LE CS Procedure Enable Complete"
        case 0x31: return "LE CS Subevent Result"
        case 0x32: return "LE CS Subevent Result Continue"
        case 0x33: return "LE CS Test End Complete"
        default: return "Unknown"
        }
    }

    /// `LE Connection Complete (0x01)`.
    public var description: String { EventFormat.named(name, rawValue) }

    public static func < (l: LEMetaSubevent, r: LEMetaSubevent) -> Bool { l.rawValue < r.rawValue }
}
