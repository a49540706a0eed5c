/// An HCI command packet without its H4 indicator: opcode, parameter length, parameters
/// (Core Spec v5.4 Vol 4, Part E, §5.4.1).
///
/// The parameters stay a slice of the input, so framing a captured packet copies nothing; the
/// typed command is decoded from them on demand (`decode(_:)` or `HCICommandCatalog`).
public struct HCICommandPacket: WireCodable, Hashable {
    public var opcode: HCIOpcode
    public var parameters: ArraySlice<UInt8>

    /// The largest parameter block the one-byte length can announce.
    public static let maxParameterLength = 255

    public init(opcode: HCIOpcode, parameters: ArraySlice<UInt8>) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// Reads opcode (u16 LE), length (u8) and exactly that many parameter bytes; a length that
    /// overruns the input throws.
    public init(decoding r: inout ByteReader) throws(WireError) {
        opcode = HCIOpcode(rawValue: try r.u16("Opcode"))
        let length = Int(try r.u8("Parameter_Total_Length"))
        parameters = try r.bytes(length, "Parameters")
    }

    /// From an `HCIPacket`; throws when it is not a command packet.
    public init(_ packet: HCIPacket) throws(WireError) {
        guard packet.type == .command else {
            throw WireError.invalidValue(field: "H4 packet type", value: UInt64(packet.type.rawValue))
        }
        try self.init(bytes: packet.bytes)
    }

    /// Parameters longer than 255 bytes cannot be framed; they are cut to 255 so the length
    /// byte stays true (no command this module builds comes near the limit).
    public func encode(into w: inout ByteWriter) {
        let p = parameters.prefix(HCICommandPacket.maxParameterLength)
        w.u16(opcode.rawValue)
        w.u8(UInt8(truncatingIfNeeded: p.count))
        w.append(p)
    }

    public var packet: HCIPacket { HCIPacket(type: .command, bytes: encoded) }

    /// Opcode, length and parameters of `command` (the bytes after the H4 indicator).
    public static func encode<C: HCICommand>(_ command: C) -> [UInt8] {
        var w = ByteWriter(capacity: 3 + 32)
        w.u16(C.opcode.rawValue)
        w.u8(0)
        command.encode(into: &w)
        var bytes = w.bytes
        let length = bytes.count - 3
        if length > maxParameterLength {
            bytes.removeLast(length - maxParameterLength)
        }
        bytes[2] = UInt8(truncatingIfNeeded: min(length, maxParameterLength))
        return bytes
    }

    public static func make<C: HCICommand>(_ command: C) -> HCIPacket {
        HCIPacket(type: .command, bytes: encode(command))
    }

    /// Decodes the parameters as `C`; throws when the opcode is another command's.
    public func decode<C: HCICommand>(_ type: C.Type) throws(WireError) -> C {
        guard opcode == C.opcode else {
            throw WireError.invalidValue(field: "Opcode", value: UInt64(opcode.rawValue))
        }
        return try C(bytes: parameters)
    }
}

extension HCICommandPacket: FieldDescribing {
    public var summary: String { opcode.name + " plen " + String(parameters.count) }

    /// Opcode and, when the catalog knows the command, its decoded parameters (else hex).
    public func describeFields(into fields: inout FieldList) {
        fields.add("Opcode", opcode.description)
        switch HCICommandCatalog.decodeParameters(opcode: opcode, parameters) {
        case .success(let decoded)?:
            decoded.describeFields(into: &fields)
        case .failure(let error)?:
            fields.add("Error", error.description)
            fields.add("Parameters", Hex.spaced(parameters))
        case nil:
            if !parameters.isEmpty { fields.add("Parameters", Hex.spaced(parameters)) }
        }
    }
}
