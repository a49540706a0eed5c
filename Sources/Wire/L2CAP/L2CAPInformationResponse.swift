/// L2CAP_INFORMATION_RSP data (Core Spec v5.4 Vol 3, Part A, §4.11): InfoType, Result
/// (0x0000 success, 0x0001 not supported), then data whose layout the InfoType gives. The
/// data is kept raw; the typed views read it when it has the expected size.
public struct L2CAPInformationResponse: WireCodable, Hashable {
    public var infoType: L2CAPInformationType
    public var result: UInt16
    public var data: ArraySlice<UInt8>

    public init(infoType: L2CAPInformationType, result: UInt16 = 0, data: ArraySlice<UInt8> = []) {
        self.infoType = infoType
        self.result = result
        self.data = data
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        infoType = L2CAPInformationType(try reader.u16("InfoType"))
        result = try reader.u16("Result")
        data = reader.rest()
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(infoType.rawValue)
        writer.u16(result)
        writer.append(data)
    }

    public var isSuccess: Bool { result == 0 }

    public var resultName: String {
        switch result {
        case 0x0000: return "Success"
        case 0x0001: return "Not supported"
        default: return "Reserved"
        }
    }

    /// Connectionless MTU (InfoType 0x0001).
    public var connectionlessMTU: UInt16? {
        guard infoType == .connectionlessMTU, isSuccess, data.count == 2 else { return nil }
        var r = ByteReader(data)
        return try? r.u16()
    }

    /// Extended feature mask (InfoType 0x0002).
    public var extendedFeatures: UInt32? {
        guard infoType == .extendedFeatures, isSuccess, data.count == 4 else { return nil }
        var r = ByteReader(data)
        return try? r.u32()
    }

    /// Fixed channels bitmap (InfoType 0x0003): bit n set = CID n is supported.
    public var fixedChannels: UInt64? {
        guard infoType == .fixedChannels, isSuccess, data.count == 8 else { return nil }
        var r = ByteReader(data)
        return try? r.u64()
    }

    /// Names of the bits of the extended feature mask (§4.12), lowest first.
    public static func featureNames(_ mask: UInt32) -> [String] {
        let names = ["Flow control mode", "Retransmission mode", "Bi-directional QoS", "Enhanced Retransmission Mode",
                     "Streaming Mode", "FCS Option", "Extended Flow Specification for BR/EDR", "Fixed Channels",
                     "Extended Window Size", "Unicast Connectionless Data Reception", "Enhanced Credit Based Flow Control Mode"]
        var out: [String] = []
        for bit in 0..<32 where mask & (1 << UInt32(bit)) != 0 {
            out.append(bit < names.count ? names[bit] : "bit \(bit)")
        }
        return out
    }
}
