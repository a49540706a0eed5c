#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Wire

/// Events from real phones' controllers (shared/captures, beside the checkout) must all
/// decode, and encode back to the very same bytes.
enum SharedCaptures {
    /// `<package>/../shared/captures`, found from this file's path.
    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/WireTests/<file>
        return parts.joined(separator: "/") + "/../shared/captures"
    }()

    static var available: Bool { access(directory, R_OK) == 0 }

    static func read(_ name: String) -> [UInt8]? {
        guard let f = fopen(directory + "/" + name, "rb") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
            if n <= 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }

    /// HCI event packets (bytes after the H4 indicator) of a btsnoop file with datalink 1002 (H4).
    static func btsnoopEvents(_ file: ArraySlice<UInt8>) throws -> [ArraySlice<UInt8>] {
        var r = ByteReader(file)
        _ = try r.bytes(8, "magic")
        _ = try r.u32BE("version")
        guard try r.u32BE("datalink") == 1002 else { return [] }
        var events: [ArraySlice<UInt8>] = []
        while !r.isAtEnd {
            _ = try r.u32BE("original length")
            let included = Int(try r.u32BE("included length"))
            _ = try r.bytes(16, "flags, drops, timestamp")
            let packet = try r.bytes(included, "packet")
            if packet.first == H4PacketType.event.rawValue { events.append(packet.dropFirst()) }
        }
        return events
    }

    /// HCI event packets of a little-endian pcapng file with LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR (201).
    static func pcapngEvents(_ file: ArraySlice<UInt8>) throws -> [ArraySlice<UInt8>] {
        var r = ByteReader(file)
        var events: [ArraySlice<UInt8>] = []
        while !r.isAtEnd {
            let type = try r.u32("block type")
            let total = Int(try r.u32("block length"))
            guard total >= 12 else { throw WireError.malformed("block length \(total)") }
            var body = ByteReader(try r.bytes(total - 8, "block"))
            if type == 6 {  // Enhanced Packet Block
                _ = try body.bytes(12, "interface, timestamp")
                let captured = Int(try body.u32("captured length"))
                _ = try body.u32("original length")
                let data = try body.bytes(captured, "packet")
                // 4-byte direction pseudo-header, then the H4 indicator.
                if data.count > 5, data[data.startIndex + 4] == H4PacketType.event.rawValue {
                    events.append(data.dropFirst(5))
                }
            }
        }
        return events
    }
}

@Suite(.enabled(if: SharedCaptures.available, "shared/captures is absent beside the checkout; skipping real captures"))
struct HCIEventCaptureTests {
    @Test(arguments: ["ftms-treadmill-android.btsnoop", "two-links-envsensing-android.btsnoop",
                      "smartwatch-android-dlt201.pcapng"])
    func everyEventDecodesAndReencodesExactly(_ name: String) throws {
        let file = try #require(SharedCaptures.read(name), "cannot read \(name)")
        let events = name.hasSuffix(".pcapng")
            ? try SharedCaptures.pcapngEvents(file[...]) : try SharedCaptures.btsnoopEvents(file[...])
        #expect(events.count > 100)
        var unknown = 0, mismatches: [String] = []
        for bytes in events {
            let event = try HCIEvent.decode(bytes)
            if case .unknown = event { unknown += 1 }
            if case .leUnknown = event { unknown += 1 }
            if event.encoded != Array(bytes) { mismatches.append(Hex.spaced(bytes)) }
            _ = event.exerciseDisplay()
        }
        // These captures hold only events decoded here (tshark lists 0x05, 0x0C, 0x0E, 0x0F, 0x13
        // and LE subevents 0x01–0x04, 0x07, 0x0A).
        #expect(unknown == 0)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    @Test func advertisingReportsOfARealScanIterate() throws {
        let file = try #require(SharedCaptures.read("two-links-envsensing-android.btsnoop"))
        var reports = 0, withData = 0
        for bytes in try SharedCaptures.btsnoopEvents(file[...]) {
            guard case .le(.advertisingReport(let e)) = try HCIEvent.decode(bytes) else { continue }
            for r in e.reports {
                reports += 1
                if !r.data.isEmpty { withData += 1 }
                #expect(r.rssi < 20 || r.rssi == 127)
            }
        }
        // tshark counts 2,565 LE Advertising Report events in this file.
        #expect(reports >= 2565)
        #expect(withData > 0)
    }
}
