import Testing
import Glibc
@testable import Wire

/// Advertising data taken from real phone captures in `<package>/../shared/captures`.
enum CaptureAdvertising {
    static var directory: String? {
        // #filePath is <package>/Tests/WireTests/<this file>.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 3 else { return nil }
        parts.removeLast(3)
        let dir = parts.joined(separator: "/") + "/../shared/captures"
        return access(dir, F_OK) == 0 ? dir : nil
    }

    static func read(_ path: String) -> [UInt8]? {
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
    static func reports(in file: [UInt8]) -> [ArraySlice<UInt8>] {
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

@Suite struct AdvertisingCaptureTests {
    @Test(.enabled(if: CaptureAdvertising.directory != nil,
                   "skipped: ../shared/captures (real phone captures) not found beside the package"),
          arguments: [("two-links-envsensing-android.btsnoop", 2), ("ftms-treadmill-android.btsnoop", 0)])
    func realAdvertisingReportsParse(_ name: String, _ expectedOverruns: Int) throws {
        let dir = try #require(CaptureAdvertising.directory)
        let file = try #require(CaptureAdvertising.read(dir + "/" + name), "cannot read \(name)")
        let reports = CaptureAdvertising.reports(in: file)
        #expect(reports.count > 100, "\(name): \(reports.count) reports")
        var structures = 0
        var overruns: [ADIssue] = []
        for data in reports {
            let adv = AdvertisingData(data)
            structures += adv.structures.count
            overruns += adv.issues.filter { if case .lengthOverrun = $0 { true } else { false } }
            AdvertisingFuzzTests.exercise(Array(data))
        }
        #expect(structures > reports.count / 2)
        // The envsensing capture holds two reports (frames 1493 and 2181) whose first AD
        // structure claims 32 octets of 25; tshark marks them "Malformed Packet" too.
        #expect(overruns.count == expectedOverruns, "\(name): \(overruns)")
        for issue in overruns {
            #expect(issue == .lengthOverrun(offset: 0, type: .incompleteList16BitServiceUUIDs, length: 32, available: 24))
        }
    }

    // tshark decodes a report of the treadmill capture as Complete Local Name "GVH5072_6FAB",
    // Complete List of 16-bit Service UUIDs 0xEC88, Flags 0x05, manufacturer 0xEC88 data
    // 00 02 d0 17 42 00; and an Apple iBeacon (company 0x004C, data 02 15 …).
    @Test(.enabled(if: CaptureAdvertising.directory != nil,
                   "skipped: ../shared/captures (real phone captures) not found beside the package"))
    func treadmillCaptureHasTheDevicesTsharkShows() throws {
        let dir = try #require(CaptureAdvertising.directory)
        let file = try #require(CaptureAdvertising.read(dir + "/ftms-treadmill-android.btsnoop"))
        let ads = CaptureAdvertising.reports(in: file).map { AdvertisingData($0) }
        let govee = try #require(ads.first { $0.localName == "GVH5072_6FAB" })
        #expect(govee.serviceUUIDs == [BluetoothUUID(0xEC88)])
        #expect(govee.flags == [.leLimitedDiscoverableMode, .brEdrNotSupported])
        #expect(govee.manufacturerData?.company == CompanyIdentifier(0xEC88))
        #expect(govee.manufacturerData.map { Array($0.data) } == [0x00, 0x02, 0xD0, 0x17, 0x42, 0x00])
        let beacon = try #require(ads.first { $0.manufacturerData?.company == .apple })
        #expect(beacon.manufacturerData?.data.prefix(2).elementsEqual([0x02, 0x15]) == true)
    }
}
