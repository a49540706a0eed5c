/// An LE Meta event (Vol 4, Part E, §7.7.65) whose subevent this module decodes. Subevents
/// it does not decode arrive as `HCIEvent.leUnknown` instead.
public enum LEMetaEvent: Sendable, Hashable {
    case connectionComplete(LEConnectionCompleteEvent)
    case advertisingReport(LEAdvertisingReportEvent)
    case connectionUpdateComplete(LEConnectionUpdateCompleteEvent)
    case readRemoteFeaturesComplete(LEReadRemoteFeaturesCompleteEvent)
    case longTermKeyRequest(LELongTermKeyRequestEvent)
    case remoteConnectionParameterRequest(LERemoteConnectionParameterRequestEvent)
    case dataLengthChange(LEDataLengthChangeEvent)
    case enhancedConnectionCompleteV1(LEEnhancedConnectionCompleteV1Event)
    case directedAdvertisingReport(LEDirectedAdvertisingReportEvent)
    case phyUpdateComplete(LEPHYUpdateCompleteEvent)
    case extendedAdvertisingReport(LEExtendedAdvertisingReportEvent)
    case channelSelectionAlgorithm(LEChannelSelectionAlgorithmEvent)
    case enhancedConnectionCompleteV2(LEEnhancedConnectionCompleteV2Event)

    public var subevent: LEMetaSubevent {
        switch self {
        case .connectionComplete: return .connectionComplete
        case .advertisingReport: return .advertisingReport
        case .connectionUpdateComplete: return .connectionUpdateComplete
        case .readRemoteFeaturesComplete: return .readRemoteFeaturesComplete
        case .longTermKeyRequest: return .longTermKeyRequest
        case .remoteConnectionParameterRequest: return .remoteConnectionParameterRequest
        case .dataLengthChange: return .dataLengthChange
        case .enhancedConnectionCompleteV1: return .enhancedConnectionCompleteV1
        case .directedAdvertisingReport: return .directedAdvertisingReport
        case .phyUpdateComplete: return .phyUpdateComplete
        case .extendedAdvertisingReport: return .extendedAdvertisingReport
        case .channelSelectionAlgorithm: return .channelSelectionAlgorithm
        case .enhancedConnectionCompleteV2: return .enhancedConnectionCompleteV2
        }
    }

    public var name: String { subevent.name }

    /// Decodes the parameters after the subevent code; nil for a subevent not decoded here.
    public static func decode(subevent: LEMetaSubevent, parameters: ArraySlice<UInt8>) throws(WireError) -> LEMetaEvent? {
        var r = ByteReader(parameters)
        switch subevent {
        case .connectionComplete: return .connectionComplete(try .init(decoding: &r))
        case .advertisingReport: return .advertisingReport(try .init(decoding: &r))
        case .connectionUpdateComplete: return .connectionUpdateComplete(try .init(decoding: &r))
        case .readRemoteFeaturesComplete: return .readRemoteFeaturesComplete(try .init(decoding: &r))
        case .longTermKeyRequest: return .longTermKeyRequest(try .init(decoding: &r))
        case .remoteConnectionParameterRequest: return .remoteConnectionParameterRequest(try .init(decoding: &r))
        case .dataLengthChange: return .dataLengthChange(try .init(decoding: &r))
        case .enhancedConnectionCompleteV1: return .enhancedConnectionCompleteV1(try .init(decoding: &r))
        case .directedAdvertisingReport: return .directedAdvertisingReport(try .init(decoding: &r))
        case .phyUpdateComplete: return .phyUpdateComplete(try .init(decoding: &r))
        case .extendedAdvertisingReport: return .extendedAdvertisingReport(try .init(decoding: &r))
        case .channelSelectionAlgorithm: return .channelSelectionAlgorithm(try .init(decoding: &r))
        case .enhancedConnectionCompleteV2: return .enhancedConnectionCompleteV2(try .init(decoding: &r))
        default: return nil
        }
    }

    /// The subevent's parameters as one value, for encoding and display (not on the data path).
    var content: any WireCodable & FieldDescribing {
        switch self {
        case .connectionComplete(let e): return e
        case .advertisingReport(let e): return e
        case .connectionUpdateComplete(let e): return e
        case .readRemoteFeaturesComplete(let e): return e
        case .longTermKeyRequest(let e): return e
        case .remoteConnectionParameterRequest(let e): return e
        case .dataLengthChange(let e): return e
        case .enhancedConnectionCompleteV1(let e): return e
        case .directedAdvertisingReport(let e): return e
        case .phyUpdateComplete(let e): return e
        case .extendedAdvertisingReport(let e): return e
        case .channelSelectionAlgorithm(let e): return e
        case .enhancedConnectionCompleteV2(let e): return e
        }
    }

    /// Subevent code, then the subevent's parameters: the LE Meta event's parameters.
    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(subevent.rawValue)
        content.encode(into: &w)
    }
}

extension LEMetaEvent: FieldDescribing {
    public var summary: String { content.summary }
    public func describeFields(into f: inout FieldList) { content.describeFields(into: &f) }
}
