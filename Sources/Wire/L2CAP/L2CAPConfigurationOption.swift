/// One option of a Configuration Request or Response (Core Spec v5.4 Vol 3, Part A, §5):
/// Type (1; bit 7 set = hint, which a recipient may ignore), Length (1), Value. The value is
/// kept raw so that an unknown type or an odd length still round-trips and is shown; the
/// typed views read it when it has its type's size.
public struct L2CAPConfigurationOption: Sendable, Hashable {
    /// The type with the hint bit cleared.
    public var type: L2CAPConfigurationOptionType
    public var isHint: Bool
    public var value: ArraySlice<UInt8>

    public init(type: L2CAPConfigurationOptionType, isHint: Bool = false, value: ArraySlice<UInt8>) {
        self.type = type
        self.isHint = isHint
        self.value = value
    }

    /// An MTU option: the largest SDU the sender of the option can receive.
    public static func mtu(_ mtu: UInt16) -> L2CAPConfigurationOption {
        var w = ByteWriter(capacity: 2)
        w.u16(mtu)
        return L2CAPConfigurationOption(type: .mtu, value: w.bytes[...])
    }

    /// Reads options until `reader` is empty (they fill the rest of the command).
    static func decodeAll(_ reader: inout ByteReader) throws(WireError) -> [L2CAPConfigurationOption] {
        var options: [L2CAPConfigurationOption] = []
        while !reader.isAtEnd {
            let raw = try reader.u8("option Type")
            let length = try reader.u8("option Length")
            let value = try reader.bytes(Int(length), "option value")
            options.append(L2CAPConfigurationOption(type: L2CAPConfigurationOptionType(raw & 0x7F), isHint: raw & 0x80 != 0, value: value))
        }
        return options
    }

    func encode(into writer: inout ByteWriter) {
        writer.u8(type.rawValue | (isHint ? 0x80 : 0))
        let v = value.prefix(255)
        writer.u8(UInt8(v.count))
        writer.append(v)
    }

    private func u16(ifSize size: Int) -> UInt16? {
        guard value.count == size else { return nil }
        var r = ByteReader(value)
        return try? r.u16()
    }

    /// MTU option (0x01).
    public var mtu: UInt16? { type == .mtu ? u16(ifSize: 2) : nil }
    /// Flush Timeout option (0x02), in ms (0xFFFF: infinite).
    public var flushTimeout: UInt16? { type == .flushTimeout ? u16(ifSize: 2) : nil }
    /// Extended Window Size option (0x07).
    public var extendedWindowSize: UInt16? { type == .extendedWindowSize ? u16(ifSize: 2) : nil }
    /// Frame Check Sequence option (0x05): 0x00 no FCS, 0x01 16-bit FCS.
    public var fcsType: UInt8? { type == .frameCheckSequence && value.count == 1 ? value.first : nil }

    /// Retransmission and Flow Control option (0x04, §5.4).
    public var retransmissionAndFlowControl: L2CAPRetransmissionAndFlowControl? {
        guard type == .retransmissionAndFlowControl, value.count == 9 else { return nil }
        var r = ByteReader(value)
        return try? L2CAPRetransmissionAndFlowControl(decoding: &r)
    }
}

/// Type of a configuration option (Core Spec v5.4 Vol 3, Part A, §5), without the hint bit.
public struct L2CAPConfigurationOptionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let mtu = L2CAPConfigurationOptionType(0x01)
    public static let flushTimeout = L2CAPConfigurationOptionType(0x02)
    public static let qualityOfService = L2CAPConfigurationOptionType(0x03)
    public static let retransmissionAndFlowControl = L2CAPConfigurationOptionType(0x04)
    public static let frameCheckSequence = L2CAPConfigurationOptionType(0x05)
    public static let extendedFlowSpecification = L2CAPConfigurationOptionType(0x06)
    public static let extendedWindowSize = L2CAPConfigurationOptionType(0x07)

    public var name: String {
        switch rawValue {
        case 0x01: return "MTU"
        case 0x02: return "Flush Timeout"
        case 0x03: return "Quality of Service"
        case 0x04: return "Retransmission and Flow Control"
        case 0x05: return "Frame Check Sequence"
        case 0x06: return "Extended Flow Specification"
        case 0x07: return "Extended Window Size"
        default: return "Unknown option"
        }
    }
}

/// Value of the Retransmission and Flow Control option (Core Spec v5.4 Vol 3, Part A, §5.4).
public struct L2CAPRetransmissionAndFlowControl: WireCodable, Hashable {
    public var mode: L2CAPChannelMode
    public var txWindowSize: UInt8
    public var maxTransmit: UInt8
    /// In ms.
    public var retransmissionTimeout: UInt16
    /// In ms.
    public var monitorTimeout: UInt16
    public var mps: UInt16

    public init(mode: L2CAPChannelMode, txWindowSize: UInt8 = 0, maxTransmit: UInt8 = 0, retransmissionTimeout: UInt16 = 0,
                monitorTimeout: UInt16 = 0, mps: UInt16 = 0) {
        self.mode = mode
        self.txWindowSize = txWindowSize
        self.maxTransmit = maxTransmit
        self.retransmissionTimeout = retransmissionTimeout
        self.monitorTimeout = monitorTimeout
        self.mps = mps
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        mode = L2CAPChannelMode(try r.u8("Mode"))
        txWindowSize = try r.u8("TxWindow size")
        maxTransmit = try r.u8("Max Transmit")
        retransmissionTimeout = try r.u16("Retransmission time-out")
        monitorTimeout = try r.u16("Monitor time-out")
        mps = try r.u16("Maximum PDU size")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(mode.rawValue)
        w.u8(txWindowSize)
        w.u8(maxTransmit)
        w.u16(retransmissionTimeout)
        w.u16(monitorTimeout)
        w.u16(mps)
    }
}

/// Mode of a BR/EDR channel (Core Spec v5.4 Vol 3, Part A, §5.4): Basic mode carries B-frames,
/// the retransmission and streaming modes I- and S-frames with a control field.
public struct L2CAPChannelMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let basic = L2CAPChannelMode(0x00)
    public static let retransmission = L2CAPChannelMode(0x01)
    public static let flowControl = L2CAPChannelMode(0x02)
    public static let enhancedRetransmission = L2CAPChannelMode(0x03)
    public static let streaming = L2CAPChannelMode(0x04)

    public var name: String {
        switch rawValue {
        case 0x00: return "Basic"
        case 0x01: return "Retransmission"
        case 0x02: return "Flow Control"
        case 0x03: return "Enhanced Retransmission"
        case 0x04: return "Streaming"
        default: return "Reserved"
        }
    }
}

extension L2CAPChannelMode: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
