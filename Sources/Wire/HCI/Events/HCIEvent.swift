/// An HCI event packet (Vol 4, Part E, §5.4.4 and §7.7), decoded into the events a BLE
/// central meets. Every other event — and every LE subevent not decoded here — keeps its
/// code and parameter bytes instead of failing: a controller may send anything it was not
/// asked for (vendor events above all), and that must never stop the host.
public enum HCIEvent: Sendable, Hashable {
    case disconnectionComplete(DisconnectionCompleteEvent)
    case encryptionChangeV1(EncryptionChangeV1Event)
    case readRemoteVersionInformationComplete(ReadRemoteVersionInformationCompleteEvent)
    case commandComplete(CommandCompleteEvent)
    case commandStatus(CommandStatusEvent)
    case hardwareError(HardwareErrorEvent)
    case numberOfCompletedPackets(NumberOfCompletedPacketsEvent)
    case dataBufferOverflow(DataBufferOverflowEvent)
    case encryptionKeyRefreshComplete(EncryptionKeyRefreshCompleteEvent)
    case encryptionChangeV2(EncryptionChangeV2Event)
    case le(LEMetaEvent)
    /// An LE Meta event with a subevent not decoded here; the bytes after the subevent code.
    case leUnknown(LEMetaSubevent, ArraySlice<UInt8>)
    /// Any other event, vendor events included; its parameter bytes.
    case unknown(HCIEventCode, ArraySlice<UInt8>)

    /// Decodes the bytes after the H4 indicator: event code, parameter length, parameters.
    /// Bytes after the declared length are ignored; a length that overruns the bytes present
    /// throws.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(WireError) -> HCIEvent {
        var r = ByteReader(bytes)
        return try HCIEvent(decoding: &r)
    }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> HCIEvent {
        try decode(bytes[...])
    }

    /// Decodes an event's parameters when code and parameters are already apart. Parameters
    /// longer than the event's layout are accepted (newer specification versions append).
    public static func decode(code: HCIEventCode, parameters: ArraySlice<UInt8>) throws(WireError) -> HCIEvent {
        var r = ByteReader(parameters)
        switch code {
        case .disconnectionComplete: return .disconnectionComplete(try .init(decoding: &r))
        case .encryptionChangeV1: return .encryptionChangeV1(try .init(decoding: &r))
        case .readRemoteVersionInformationComplete: return .readRemoteVersionInformationComplete(try .init(decoding: &r))
        case .commandComplete: return .commandComplete(try .init(decoding: &r))
        case .commandStatus: return .commandStatus(try .init(decoding: &r))
        case .hardwareError: return .hardwareError(try .init(decoding: &r))
        case .numberOfCompletedPackets: return .numberOfCompletedPackets(try .init(decoding: &r))
        case .dataBufferOverflow: return .dataBufferOverflow(try .init(decoding: &r))
        case .encryptionKeyRefreshComplete: return .encryptionKeyRefreshComplete(try .init(decoding: &r))
        case .encryptionChangeV2: return .encryptionChangeV2(try .init(decoding: &r))
        case .leMeta:
            let subevent = LEMetaSubevent(rawValue: try r.u8("Subevent_Code"))
            let rest = r.rest()
            if let le = try LEMetaEvent.decode(subevent: subevent, parameters: rest) { return .le(le) }
            return .leUnknown(subevent, rest)
        default:
            return .unknown(code, parameters)
        }
    }

    public var code: HCIEventCode {
        switch self {
        case .disconnectionComplete: return .disconnectionComplete
        case .encryptionChangeV1: return .encryptionChangeV1
        case .readRemoteVersionInformationComplete: return .readRemoteVersionInformationComplete
        case .commandComplete: return .commandComplete
        case .commandStatus: return .commandStatus
        case .hardwareError: return .hardwareError
        case .numberOfCompletedPackets: return .numberOfCompletedPackets
        case .dataBufferOverflow: return .dataBufferOverflow
        case .encryptionKeyRefreshComplete: return .encryptionKeyRefreshComplete
        case .encryptionChangeV2: return .encryptionChangeV2
        case .le, .leUnknown: return .leMeta
        case .unknown(let code, _): return code
        }
    }

    /// The LE subevent, for LE Meta events.
    public var leSubevent: LEMetaSubevent? {
        switch self {
        case .le(let e): return e.subevent
        case .leUnknown(let s, _): return s
        default: return nil
        }
    }

    /// `Command Complete`, `LE Meta: LE Connection Complete`, `Unknown (0x42)`.
    public var name: String {
        if let s = leSubevent {
            return code.name + ": " + (s.name == "Unknown" ? s.description : s.name)
        }
        return code.name == "Unknown" ? code.description : code.name
    }

    /// The event's parameters as one value, for encoding and display (not on the data path).
    var content: (any WireCodable & FieldDescribing)? {
        switch self {
        case .disconnectionComplete(let e): return e
        case .encryptionChangeV1(let e): return e
        case .readRemoteVersionInformationComplete(let e): return e
        case .commandComplete(let e): return e
        case .commandStatus(let e): return e
        case .hardwareError(let e): return e
        case .numberOfCompletedPackets(let e): return e
        case .dataBufferOverflow(let e): return e
        case .encryptionKeyRefreshComplete(let e): return e
        case .encryptionChangeV2(let e): return e
        case .le(let e): return e.content
        case .leUnknown, .unknown: return nil
        }
    }

    /// The event's parameters, without code and length (the subevent code first for LE).
    public func encodeParameters(into w: inout ByteWriter) {
        switch self {
        case .le(let e): e.encodeParameters(into: &w)
        case .leUnknown(let s, let p):
            w.u8(s.rawValue)
            w.append(p)
        case .unknown(_, let p): w.append(p)
        default: content?.encode(into: &w)
        }
    }
}

extension HCIEvent: WireCodable {
    public init(decoding r: inout ByteReader) throws(WireError) {
        let code = HCIEventCode(rawValue: try r.u8("Event_Code"))
        let length = Int(try r.u8("Parameter_Total_Length"))
        if r.count < length {
            throw WireError.malformed("\(code.name) event: Parameter_Total_Length \(length) overruns the \(r.count) byte(s) present")
        }
        self = try HCIEvent.decode(code: code, parameters: try r.bytes(length, "Event_Parameters"))
    }

    /// Code, length, parameters. Parameters cannot exceed 255 bytes in an event; longer ones
    /// (possible only for values built by hand) are cut so that the length stays true.
    public func encode(into w: inout ByteWriter) {
        var p = ByteWriter(capacity: 64)
        encodeParameters(into: &p)
        let parameters = p.bytes.prefix(255)
        w.u8(code.rawValue)
        w.u8(UInt8(truncatingIfNeeded: parameters.count))
        w.append(parameters)
    }

    /// The event as sent over H4: indicator 0x04 first.
    public var h4Bytes: [UInt8] {
        var w = ByteWriter(capacity: 64)
        w.u8(H4PacketType.event.rawValue)
        encode(into: &w)
        return w.bytes
    }
}

extension HCIEvent: FieldDescribing {
    public var summary: String {
        var t = TextBuffer()
        appendSummary(to: &t)
        return t.string
    }

    public func appendSummary(to t: inout TextBuffer) {
        switch self {
        // The events of every busy capture, without boxing them in an existential first.
        case .numberOfCompletedPackets(let e): e.appendSummary(to: &t)
        case .commandComplete(let e): e.appendSummary(to: &t)
        case .le(.advertisingReport(let e)): e.appendSummary(to: &t)
        case .le(.extendedAdvertisingReport(let e)): e.appendSummary(to: &t)
        case .leUnknown(_, let p), .unknown(_, let p): EventFormat.plural(p.count, "parameter byte", into: &t)
        default: content?.appendSummary(to: &t)
        }
    }

    public func describe(summary: inout TextBuffer, fields: inout FieldList) {
        switch self {
        case .le(.advertisingReport(let e)): e.describe(summary: &summary, fields: &fields)
        case .le(.extendedAdvertisingReport(let e)): e.describe(summary: &summary, fields: &fields)
        default:
            appendSummary(to: &summary)
            describeFields(into: &fields)
        }
    }

    public func describeFields(into f: inout FieldList) {
        switch self {
        case .numberOfCompletedPackets(let e): e.describeFields(into: &f)
        case .commandComplete(let e): e.describeFields(into: &f)
        case .le(.advertisingReport(let e)): e.describeFields(into: &f)
        case .le(.extendedAdvertisingReport(let e)): e.describeFields(into: &f)
        case .leUnknown(_, let p), .unknown(_, let p):
            f.add("Parameters", p.isEmpty ? "none" : Hex.spaced(p))
        default: content?.describeFields(into: &f)
        }
    }
}
