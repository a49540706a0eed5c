import Testing
import Glibc
@testable import Wire

/// `<package>/../shared/captures`, found from this file's path (Tests/WireTests/…).
private func capturePath(_ name: String) -> String {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/../shared/captures/" + name
}

private func readFile(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, f) }
        if n <= 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    return out
}

private func captureExists(_ name: String) -> Bool { access(capturePath(name), R_OK) == 0 }

/// H4 records of a btsnoop file with datalink 1002 (a minimal reader for this test only;
/// the Capture target has the real one).
private func btsnoopH4Records(_ bytes: [UInt8]) throws -> [ArraySlice<UInt8>] {
    var r = ByteReader(bytes)
    let magic = try r.bytes(8)
    guard Array(magic) == Array("btsnoop\0".utf8) else { throw WireError.malformed("not btsnoop") }
    _ = try r.u32BE()
    guard try r.u32BE() == 1002 else { throw WireError.malformed("not H4") }
    var records: [ArraySlice<UInt8>] = []
    while !r.isAtEnd {
        _ = try r.u32BE()                 // original length
        let included = try r.u32BE()
        _ = try r.u32BE()                 // flags
        _ = try r.u32BE()                 // drops
        _ = try r.u64BE()                 // timestamp
        records.append(try r.bytes(Int(included)))
    }
    return records
}

private struct CaptureTally {
    var notifications = 0
    var attPDUs = 0
    var attErrors = 0
    var signaling = 0
    var signalingErrors = 0
    var issues: [ACLReassemblyIssue] = []
}

private func tally(_ name: String) throws -> CaptureTally {
    let bytes = try #require(readFile(capturePath(name)))
    var reassembler = ACLReassembler()
    var t = CaptureTally()
    for record in try btsnoopH4Records(bytes) where record.first == H4PacketType.acl.rawValue {
        let packet = try ACLPacket.decode(record.dropFirst())
        let out = reassembler.feed(packet)
        t.issues += out.issues
        guard let frame = out.frame else { continue }
        switch frame.channelID {
        case .att:
            t.attPDUs += 1
            do {
                if case .handleValueNotification = try ATTPDU.decode(frame.payload) { t.notifications += 1 }
            } catch {
                t.attErrors += 1
            }
        case .leSignaling:
            t.signaling += 1
            if (try? LESignalingCommand.decode(frame.payload)) == nil { t.signalingErrors += 1 }
        default:
            break
        }
    }
    return t
}

/// Real phone captures: every ACL packet goes through the reassembler and every ATT frame
/// through ATTPDU.decode. Notification counts are what tshark reports (captures/README.md).
@Suite struct ATTCaptureTests {
    @Test(.enabled(if: captureExists("ftms-treadmill-android.btsnoop"), "needs ../shared/captures/ftms-treadmill-android.btsnoop"))
    func treadmillCaptureDecodes() throws {
        let t = try tally("ftms-treadmill-android.btsnoop")
        #expect(t.issues.isEmpty)
        #expect(t.attErrors == 0)
        #expect(t.signalingErrors == 0)
        #expect(t.notifications == 1047)
    }

    @Test(.enabled(if: captureExists("two-links-envsensing-android.btsnoop"), "needs ../shared/captures/two-links-envsensing-android.btsnoop"))
    func twoLinkCaptureDecodes() throws {
        let t = try tally("two-links-envsensing-android.btsnoop")
        #expect(t.issues.isEmpty)
        #expect(t.attErrors == 0)
        #expect(t.signalingErrors == 0)
        #expect(t.notifications == 21)
    }
}
