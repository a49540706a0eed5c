import Glibc
import Wire

/// Advertising data taken from real phone captures in `<package>/../shared/captures`.
public enum CaptureAdvertising {
    public static var directory: String? {
        // #filePath is <package>/Tests/TestSupport/<this file>.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 3 else { return nil }
        parts.removeLast(3)
        let dir = parts.joined(separator: "/") + "/../shared/captures"
        return access(dir, F_OK) == 0 ? dir : nil
    }

    public static func read(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, f) }
            if n <= 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }

    /// The advertising data of every LE Advertising Report (subevent 0x02) and LE Extended
    /// Advertising Report (0x0D) with one report, from a btsnoop file with H4 records
    /// (datalink 1002). Core Spec v5.4 Vol 4, Part E, §7.7.65.2 and §7.7.65.13.
    public static func reports(in file: [UInt8]) -> [ArraySlice<UInt8>] {
        var r = ByteReader(file)
        guard (try? r.bytes(8)).map(Array.init) == Array("btsnoop\0".utf8),
              (try? r.u32BE()) == 1, (try? r.u32BE()) == 1002 else { return [] }
        var out: [ArraySlice<UInt8>] = []
        while !r.isAtEnd {
            guard (try? r.u32BE()) != nil, let included = try? r.u32BE(),
                  (try? r.skip(16)) != nil, let p = try? r.bytes(Int(included)) else { break }
            let b = p.startIndex
            // H4 event 0x04, LE Meta 0x3E, one report.
            guard p.count > 5, p[b] == 0x04, p[b + 1] == 0x3E, p[b + 4] == 1 else { continue }
            let lengthAt: Int
            switch p[b + 3] {
            case 0x02: lengthAt = b + 13
            case 0x0D: lengthAt = b + 28
            default: continue
            }
            guard lengthAt < p.endIndex else { continue }
            let start = lengthAt + 1
            let end = start + Int(p[lengthAt])
            guard end <= p.endIndex else { continue }
            out.append(p[start..<end])
        }
        return out
    }
}
