import Testing
@testable import HostCore
import Wire
#if canImport(Glibc)
import Glibc
#endif

/// The notification path (ACL packet → reassembly → GATTClient.receive → the sink's
/// `.notification`) must not allocate for a single-fragment packet. This test runs that path N
/// times (`RTSTACK_ALLOC_LOOP`, default 1000) and checks that every notification arrived and
/// nothing else happened (the fake tallies notifications instead of storing them).
///
/// The allocation count itself is measured from outside with valgrind's DHAT on a release
/// build, as the difference between two runs of the same loop (valgrind 3.19 crashes inside the
/// Swift Testing runner here, so the loop runs in a small executable that links HostCore, built
/// with `-c release -Xswiftc -enable-testing`, and this directory's FakeController and
/// LinkPlans, with `recordsNotifications` off). With the real GATTClient in the path:
///
///     RTSTACK_ALLOC_LOOP=1000   valgrind --tool=dhat ./alloc-bench   → 334 blocks in total
///     RTSTACK_ALLOC_LOOP=101000 valgrind --tool=dhat ./alloc-bench   → 334 blocks in total
///
/// i.e. 0 allocations per notification. (An outbound Write Command plus its Number Of Completed
/// Packets costs exactly 1: the buffer that holds the packed ACL packets.)
@Suite struct HostAllocationTests {
    static var iterations: Int {
        if let raw = getenv("RTSTACK_ALLOC_LOOP"), let n = Int(String(cString: raw)), n > 0 { return n }
        return 1000
    }

    @Test func notificationPathLoop() {
        let (host, fake) = readyHost()
        let link = connectLink(host, fake, peer(1), handle: 0x0040)
        fake.clearRecord()
        fake.recordsNotifications = false
        var count = 0
        var bytes = 0
        host.attObserver = { id, pdu in
            if id == link { count += 1 }
            bytes &+= pdu.count
        }
        // ACL (handle 0x0040, PB 0b10, 11 bytes) → L2CAP (length 7, CID 4) → ATT Handle Value
        // Notification (Vol 3, Part F, §3.4.7.1): handle 0x000E, 4 value bytes. One packet,
        // reused: what a socket read hands over.
        let packet = HCIPacket(type: .acl, bytes: [0x40, 0x20, 0x0B, 0x00, 0x07, 0x00, 0x04, 0x00,
                                                   0x1B, 0x0E, 0x00, 0x01, 0x02, 0x03, 0x04])
        let n = Self.iterations
        for i in 0..<n {
            host.receive(packet, at: HostTime(i))
        }
        #expect(count == n)
        #expect(bytes == n * 7)
        // Every one reached the application as a notification of link, handle 0x000E, value
        // 01 02 03 04, and nothing else happened.
        #expect(fake.notificationTally == [link: .init(count: n, handles: [0x000E], valueByteSum: n * 10)])
        #expect(fake.events.isEmpty)
        #expect(fake.sent.isEmpty)
    }
}
