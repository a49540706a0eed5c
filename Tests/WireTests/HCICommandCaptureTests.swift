#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Wire

/// Real phone captures in `<package>/../shared/captures` (see its README): every command packet
/// and every Command Complete must frame, and those with a codec must decode and encode back to
/// the very bytes the phone's stack sent.
private enum PhoneCaptures {
    static let directory: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)   // WireTests/<file>, Tests, → package root
        return parts.joined(separator: "/") + "/../shared/captures"
    }()

    static let btsnoopFiles = ["ftms-treadmill-android.btsnoop", "two-links-envsensing-android.btsnoop"]

    static var available: Bool {
        btsnoopFiles.allSatisfy { access(directory + "/" + $0, R_OK) == 0 }
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, f) }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }

    /// H4 packets of a btsnoop file with datalink 1002 (header: "btsnoop\0", version, datalink;
    /// records: original length, included length, flags, drops, timestamp, data — big-endian).
    static func h4Packets(_ file: String) throws -> [ArraySlice<UInt8>] {
        guard let bytes = read(directory + "/" + file) else { throw WireError.malformed("cannot read \(file)") }
        var r = ByteReader(bytes)
        let magic = try r.bytes(8)
        guard Array(magic) == Array("btsnoop\0".utf8) else { throw WireError.malformed("not btsnoop") }
        _ = try r.u32BE()
        guard try r.u32BE() == 1002 else { throw WireError.malformed("not H4") }
        var packets: [ArraySlice<UInt8>] = []
        while !r.isAtEnd {
            _ = try r.u32BE()
            let included = Int(try r.u32BE())
            try r.skip(16)
            packets.append(try r.bytes(included))
        }
        return packets
    }
}

@Suite(.enabled(if: PhoneCaptures.available,
                "phone captures not found in <package>/../shared/captures; skipped"))
struct HCICommandCaptureTests {
    @Test(arguments: PhoneCaptures.btsnoopFiles)
    func commandPacketsDecodeAndReencodeExactly(_ file: String) throws {
        var decoded = 0
        for h4 in try PhoneCaptures.h4Packets(file) where h4.first == H4PacketType.command.rawValue {
            let packet = try HCICommandPacket(bytes: h4.dropFirst())
            #expect(packet.encoded == Array(h4.dropFirst()))
            guard let type = HCICommandCatalog.commandType(for: packet.opcode) else { continue }
            func roundTrip<C: HCICommand>(_: C.Type) throws {
                let command = try packet.decode(C.self)
                #expect(command.encoded == Array(packet.parameters), "\(packet.opcode.name)")
            }
            try roundTrip(type)
            decoded += 1
        }
        #expect(decoded >= 15, "only \(decoded) commands with a codec in \(file)")
    }

    @Test(arguments: PhoneCaptures.btsnoopFiles)
    func commandCompleteReturnParametersDecode(_ file: String) throws {
        var decoded = 0
        for h4 in try PhoneCaptures.h4Packets(file) where h4.first == H4PacketType.event.rawValue {
            var r = ByteReader(h4.dropFirst())
            // Vol 4, Part E, §7.7.14 Command Complete: code 0x0E, length, Num_HCI_Command_Packets, opcode.
            guard try r.u8() == 0x0E else { continue }
            let length = Int(try r.u8())
            var params = ByteReader(try r.bytes(length))
            _ = try params.u8()
            let opcode = HCIOpcode(rawValue: try params.u16())
            let returnBytes = params.rest()
            guard let result = HCICommandCatalog.decodeReturnParameters(opcode: opcode, returnBytes) else { continue }
            let value = try result.get()
            if let type = HCICommandCatalog.commandType(for: opcode), !type.completesWithStatus {
                func reencode<C: HCICommand>(_: C.Type) throws {
                    #expect(try C.ReturnParameters(bytes: returnBytes).encoded == Array(returnBytes), "\(opcode.name)")
                }
                try reencode(type)
            }
            var fields = FieldList()
            value.describeFields(into: &fields)
            #expect(fields.value(of: "Status") != nil, "\(opcode.name)")
            decoded += 1
        }
        #expect(decoded >= 12, "only \(decoded) Command Complete events with a codec in \(file)")
    }
}
