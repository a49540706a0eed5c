/// The command layout both signaling channels share (Core Spec v5.4 Vol 3, Part A, §4):
/// Code (1), Identifier (1), Length (2), Data — and the checks on a command's data that the
/// LE and the BR/EDR decoders both make.
enum L2CAPSignalingFraming {
    /// Reads one command's header and its Length bytes of data.
    static func read(_ reader: inout ByteReader) throws(WireError)
        -> (code: L2CAPSignalingCode, identifier: UInt8, data: ArraySlice<UInt8>) {
        let code = L2CAPSignalingCode(try reader.u8("signaling Code"))
        let identifier = try reader.u8("signaling Identifier")
        let length = try reader.u16("signaling Length")
        return (code, identifier, try reader.bytes(Int(length), "signaling Data"))
    }

    /// `data` decoded as a fixed-size `T`, with nothing left over.
    static func exact<T: WireCodable>(_ data: ArraySlice<UInt8>, _ code: L2CAPSignalingCode) throws(WireError) -> T {
        var r = ByteReader(data)
        let value = try T(decoding: &r)
        try expectEnd(r, code)
        return value
    }

    static func expectEnd(_ r: ByteReader, _ code: L2CAPSignalingCode) throws(WireError) {
        if !r.isAtEnd {
            throw WireError.malformed("\(code.name): \(r.count) byte(s) beyond its fixed size")
        }
    }

    /// Code, Identifier, Length and the data `body` writes.
    static func encode(code: L2CAPSignalingCode, identifier: UInt8, into writer: inout ByteWriter,
                       body: (inout ByteWriter) -> Void) {
        writer.u8(code.rawValue)
        writer.u8(identifier)
        let lengthAt = writer.count
        writer.u16(0)
        let start = writer.count
        body(&writer)
        writer.patchU16(at: lengthAt, UInt16(clamping: writer.count - start))
    }
}
