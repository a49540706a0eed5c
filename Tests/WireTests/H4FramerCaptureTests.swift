#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Wire

/// Real controller traffic: the H4 records of a btsnoop capture (datalink 1002), laid end to end
/// as they crossed the UART, must frame back into exactly those records.
@Suite struct H4FramerCaptureTests {
    static let capturesDirectory: String = {
        // <package>/Tests/WireTests/this file → <package>/../shared/captures
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/../shared/captures"
    }()

    static func readFile(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    /// Records of a btsnoop file (the format is big-endian: 16-byte file header, then per record
    /// original length, included length, flags, drops, timestamp, data).
    static func btsnoopRecords(_ file: [UInt8]) throws -> [[UInt8]] {
        var r = ByteReader(file)
        let magic = try r.bytes(8, "magic")
        guard Array(magic) == Array("btsnoop\0".utf8) else { throw WireError.malformed("not btsnoop") }
        _ = try r.u32BE("version")
        guard try r.u32BE("datalink") == 1002 else { throw WireError.malformed("not H4") }
        var records: [[UInt8]] = []
        while !r.isAtEnd {
            _ = try r.u32BE("original length")
            let included = try r.u32BE("included length")
            try r.skip(16, "flags, drops, timestamp")
            records.append(Array(try r.bytes(Int(included), "packet data")))
        }
        return records
    }

    @Test(arguments: ["two-links-envsensing-android.btsnoop", "ftms-treadmill-android.btsnoop"])
    func realCaptureFramesBackIntoItsRecords(name: String) throws {
        let path = Self.capturesDirectory + "/" + name
        guard let file = Self.readFile(path) else {
            print("skipping: \(path) is absent (shared captures are not beside this checkout)")
            return
        }
        let records = try Self.btsnoopRecords(file)
        #expect(records.count > 2000)
        let stream = records.flatMap { $0 }
        var rng = SplitMix64(seed: 3)
        let chunks = (0..<100).map { _ in Int.random(in: 1...64, using: &rng) }
        for chunking in [[1], chunks, [stream.count]] {
            let result = frame(stream, chunks: chunking, configuration: .init(maxACLDataLength: 1021))
            #expect(garbageCount(result.outputs) == 0)
            #expect(packets(result.outputs).map(\.h4Bytes) == records)
        }
    }
}
