import Testing
import Capture
import Dissector

/// The decoder against real phone captures, with tshark as the independent second opinion.
@Suite(.ownThread) struct DissectorCaptureTests {
    @Test(arguments: SharedCaptures.names)
    func countsMatchTshark(name: String) throws {
        guard let path = SharedCaptures.path(name) else {
            print("skipped: ../shared/captures is absent (a fresh clone has no phone captures)")
            return
        }
        guard SharedCaptures.tsharkPath != nil else {
            Issue.record("tshark is not installed; scripts/setup installs it")
            return
        }
        let dissector = PacketDissector(collectFields: true)
        var acl = 0
        var notifications = 0
        for r in try SharedCaptures.records(path) {
            let p = dissector.dissect(r)
            if p.type == .acl { acl += 1 }
            if p.att?.opcode == 0x1B { notifications += 1 }
            #expect(p.errors.isEmpty, "packet \(p.index): \(p.errors)")
        }
        let stats = dissector.statistics
        #expect(stats.decodeErrors == 0)
        #expect(stats.packets == (try SharedCaptures.tsharkCount(path)))
        #expect(acl == (try SharedCaptures.tsharkCount(path, filter: "bthci_acl")))
        #expect(notifications == (try SharedCaptures.tsharkCount(path, filter: "btatt.opcode==0x1b")))
        #expect(stats.attNotifications == notifications)
        #expect(notifications > 0)
    }

    /// Handles and values of every notification agree with tshark's fields, not just the count.
    @Test func notificationFieldsMatchTshark() throws {
        guard let path = SharedCaptures.path("ftms-treadmill-android.btsnoop"), SharedCaptures.tsharkPath != nil else {
            print("skipped: needs ../shared/captures and tshark")
            return
        }
        var expected: [Int: (UInt16, String)] = [:]
        for f in try SharedCaptures.tsharkFields(path, ["-Y", "btatt.opcode==0x1b"], fields: ["frame.number", "btatt.handle", "btatt.value"]) {
            guard f.count >= 3, let n = Int(f[0]), let h = UInt16(f[1].dropFirst(2), radix: 16) else { continue }
            expected[n] = (h, f[2].replacingOccurrences(of: ":", with: ""))
        }
        let dissector = PacketDissector(collectFields: false)
        var seen = 0
        for r in try SharedCaptures.records(path) {
            let d = dissector.dissect(r)
            guard let att = d.att, att.opcode == 0x1B else { continue }
            seen += 1
            let e = try #require(expected[d.index], "tshark has no notification at frame \(d.index)")
            #expect(att.handle == e.0)
            #expect(att.value.map { Hex.string($0) } == e.1)
        }
        #expect(seen == expected.count)
    }
}

import Foundation
import Wire
import TestSupport
