import Testing
import Timing
@testable import HostCore
import Wire

/// A deterministic random walk through everything a controller and an application can do, in
/// any order, checking after every step the rules of Docs/host-core.md: ACL credits within
/// 0…capacity, never a command beyond the credits, at most one LE Create Connection pending,
/// and no trap on any input. (The fuzzer of issue 5 goes further; this is its seed.)
@Suite struct HostInvariantTests {
    /// xorshift64*: a fixed seed gives the same walk on every run, so a failure reproduces.
    struct Walk {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
        mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }

    static let kinds: [FakeController.CompletionKind] = [.legacy, .enhancedV1, .enhancedV2]

    @Test(arguments: [UInt64(1), 0xDEAD_BEEF, 0x1234_5678_9ABC])
    func randomWalkKeepsTheInvariants(seed: UInt64) {
        var walk = Walk(state: seed)
        let (host, fake) = makeHost({ $0.aclLimits = ACLLimits(dataLength: 27, packetCount: 8) },
                                    controller: {
                                        $0.disallowCreateWhileScanning = true
                                        $0.cancelProducesConnectionComplete = true
                                    })
        fake.bringUp()
        var nextHandle: UInt16 = 1
        var connected: [UInt16: DeviceAddress] = [:]
        var links: [LinkID] = []
        for step in 0..<3000 {
            switch walk.below(16) {
            case 0, 1:
                var plan = LinkPlan()
                if walk.below(2) == 0 { plan.reconnect = Backoff.linkReconnect }
                plan.connectTimeout = HostDuration.milliseconds(UInt64(100 + walk.below(2000)))
                links.append(host.connect(to: peer(UInt8(1 + walk.below(6))), plan: plan, at: fake.now))
            case 2:
                if let l = links.randomElement(using: &walk) { host.disconnect(l, at: fake.now) }
            case 3, 4:
                if let pending = fake.createPending {
                    let ok = walk.below(3) != 0
                    let handle = nextHandle
                    fake.connectionComplete(peer: pending, handle: handle,
                                            status: ok ? .success : .connectionFailedToBeEstablished,
                                            kind: Self.kinds[walk.below(3)])
                    if ok {
                        connected[handle] = pending
                        nextHandle = nextHandle % 0x0EFF + 1
                    }
                }
            case 5, 6:
                if let l = links.randomElement(using: &walk) {
                    host.sendATT([0x52, 0x01, 0x00] + walk.bytes(walk.below(120)), on: l)
                }
            case 7, 8:
                fake.completeAllPackets()
            case 9:
                // Completions, some for handles that never were, some too many.
                fake.completePackets([(UInt16(walk.below(8)), UInt16(walk.below(5)))])
            case 10:
                if let h = connected.keys.randomElement(using: &walk), walk.below(2) == 0 {
                    connected[h] = nil
                    fake.disconnectionComplete(handle: h, reason: .connectionTimeout)
                } else {
                    fake.disconnectionComplete(handle: UInt16(walk.below(0x0F00)), reason: .connectionTimeout)
                }
            case 11:
                fake.now &+= HostDuration.milliseconds(UInt64(walk.below(3000)))
                host.advanceTime(to: fake.now)
            case 12:
                if walk.below(2) == 0 { host.startScan(at: fake.now) } else { host.stopScan(at: fake.now) }
            case 13:
                // Arbitrary bytes as ACL data and as an event.
                let handle = connected.keys.randomElement(using: &walk) ?? 1
                fake.acl(handle: handle, boundary: ACLPacketBoundary(bits: UInt16(walk.below(4))),
                         walk.bytes(walk.below(40)))
                // Not the events the fake's own bookkeeping depends on (Command Complete/Status,
                // Disconnection Complete, Hardware Error, Number Of Completed Packets, LE Meta).
                var event = walk.bytes(1 + walk.below(20))
                if [0x05, 0x0E, 0x0F, 0x10, 0x13, 0x3E].contains(event[0]) { event[0] = 0xFF }
                host.receive(HCIPacket(type: .event, bytes: event), at: fake.now)
            case 14:
                if let h = connected.keys.randomElement(using: &walk) {
                    let request = walk.below(2) == 0
                        ? HostSignalingTests.parameterUpdateRequest(id: 1, min: UInt16(walk.below(4000)), max: UInt16(walk.below(4000)),
                                                                  latency: UInt16(walk.below(600)), timeout: UInt16(walk.below(4000)))
                        : [UInt8(walk.below(0x20)), 1, 0, 0]
                    fake.l2cap(handle: h, channel: 5, request)
                }
            default:
                if walk.below(40) == 0 {
                    fake.hardwareError(0x01)
                    connected.removeAll()
                }
            }
            fake.run()
            fake.checkInvariants()
            if !fake.violations.isEmpty {
                Issue.record("step \(step) (seed \(seed)): \(fake.violations)")
                return
            }
        }
        #expect(fake.violations.isEmpty)
        #expect(fake.pulledHost.aclCreditsInUse >= 0 && fake.pulledHost.aclCreditsInUse <= 8)
        // The walk did go everywhere.
        #expect(fake.connections.count > 50)
        #expect(fake.aclSent.count > 100)
        #expect(fake.readyCount > 1)
        // Everything still works afterwards.
        for _ in 0..<20 { fake.completeAllPackets() }
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        #expect(fake.pulledHost.aclPacketsQueued == 0)
    }
}

extension HostInvariantTests.Walk: RandomNumberGenerator {}
