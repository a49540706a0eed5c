import Testing
import Wire
@testable import HostCore

/// A host on a fake controller with GATT servers behind it, wired end to end as on the air:
/// the ACL packets the host hands the controller (cut to the controller's ACL data length) are
/// reassembled per connection handle into L2CAP frames, and the ATT PDUs among them reach the
/// server of that connection; what the server sends back is framed in L2CAP, cut into ACL
/// packets of `inboundFragmentSize` bytes and fed to `host.receive`. The controller reports
/// Number Of Completed Packets for what it carried, completes LE Create Connection for a
/// reachable peer, and answers every command as `FakeController` does.
///
/// Nothing calls back into the host from its sink: `settle()` moves things along between host
/// calls until nobody has anything left to say. Along the way it checks what the controller
/// side must keep (`problems`): no ACL packet longer than the controller's buffers, no ACL
/// credit beyond the controller's count, L2CAP frames that add up.
final class HostGATTWorld {
    final class Peer {
        let address: DeviceAddress
        let server: FakeATTServer
        /// Whether it takes a connection: a pending LE Create Connection for it completes.
        var reachable = true
        /// Connection handle of its current connection.
        fileprivate(set) var handle: UInt16?
        fileprivate(set) var connections = 0
        fileprivate var requestsBeforeThisConnection = 0
        /// L2CAP frames on channels other than ATT that the host sent it (channel, payload).
        fileprivate(set) var otherFrames: [(UInt16, [UInt8])] = []
        /// Answers frames on other channels (its Security Manager): what it returns goes back
        /// on the same channel.
        var onFrame: ((UInt16, [UInt8]) -> [[UInt8]])?
        /// The controller encrypted its link (LE Enable Encryption succeeded): what it returns
        /// goes to the host on CID 0x0006 (key distribution).
        var onEncrypted: ((LEEnableEncryption) -> [[UInt8]])?
        fileprivate var outbox: [(channel: UInt16, payload: [UInt8])] = []

        init(address: DeviceAddress, server: FakeATTServer) {
            self.address = address
            self.server = server
        }

        /// The ATT requests its server received on the current (or last) connection, in order.
        var requestsThisConnection: [ATTOpcode] {
            Array(server.requests.dropFirst(requestsBeforeThisConnection))
        }
    }

    let host: HCIHost
    let fake: FakeController
    private(set) var peers: [Peer] = []
    private var peersByHandle: [UInt16: Peer] = [:]
    private var outboundPartial: [UInt16: [UInt8]] = [:]
    private var aclCursor = 0
    private var encryptionCursor = 0
    private var nextHandle: UInt16 = 0x0040
    /// Peer → host ACL packets carry at most this many bytes (27: the LE default data length).
    var inboundFragmentSize = 27
    /// Packets the controller completes per step; nil: all in flight.
    var completionsPerStep: Int?

    private(set) var problems: [String] = []
    /// Highest `fake.pulledHost.aclCreditsInUse` seen after any step.
    private(set) var maxCreditsInUse = 0
    /// Highest `fake.pulledHost.aclPacketsQueued` seen after any step.
    private(set) var maxPacketsQueued = 0
    /// ACL packets fed to `host.receive`.
    private(set) var inboundACLPackets = 0
    /// L2CAP frames from the host that took more than one ACL packet.
    private(set) var fragmentedOutboundFrames = 0

    var now: HostTime { fake.now }

    /// A ready host whose controller has `bufferCount` LE ACL buffers of 27 bytes.
    init(bufferCount: UInt8 = 64, configure: (inout HostConfiguration) -> Void = { _ in }) {
        (host, fake) = readyHost(configure, controller: { $0.leBufferCount = bufferCount })
    }

    /// A peer at `peer(n)` served by `server`, which answers Exchange MTU with 247.
    @discardableResult
    func addPeer(_ n: UInt8, _ server: FakeATTServer) -> Peer {
        server.serverRxMTU = 247
        let p = Peer(address: peer(n), server: server)
        peers.append(p)
        return p
    }

    // MARK: Driving

    @discardableResult
    func connect(_ p: Peer, plan: LinkPlan) -> LinkID {
        let id = host.connect(to: p.address, plan: plan, at: now)
        settle()
        return id
    }

    func perform(_ operation: GATTOperation, on link: LinkID) -> OperationID {
        let op = host.perform(operation, on: link, at: now)
        settle()
        return op
    }

    /// `p` sends an L2CAP frame on `channel` (a Security Request, say).
    func send(_ p: Peer, channel: UInt16, _ payload: [UInt8]) {
        p.outbox.append((channel, payload))
        settle()
    }

    /// The connection of `p` is lost (e.g. supervision timeout).
    func drop(_ p: Peer, reason: HCIStatus = .connectionTimeout) {
        guard let handle = p.handle else {
            Issue.record("drop: \(p.address) is not connected")
            return
        }
        fake.disconnectionComplete(handle: handle, reason: reason)
        settle()
    }

    /// Time passes: the host's timers fire, then everything settles.
    func advance(to time: HostTime) {
        fake.now = time
        host.advanceTime(to: time)
        settle()
    }

    func advance(by nanoseconds: UInt64) {
        advance(to: now &+ nanoseconds)
    }

    /// Forgets the fake's record (events, packets); call it only when settled.
    func clearRecord() {
        settle()
        fake.clearRecord()
        aclCursor = 0
        encryptionCursor = 0
    }

    /// Carries packets both ways until nothing moves.
    func settle() {
        for _ in 0..<100_000 {
            var moved = false
            if !fake.unanswered.isEmpty {
                fake.run()
                moved = true
            }
            if carryOutbound() { moved = true }
            forgetClosedConnections()
            if completeConnection() { moved = true }
            if completePackets() { moved = true }
            if noticeEncryption() { moved = true }
            if carryInbound() { moved = true }
            observe()
            if !moved { return }
        }
        problems.append("the exchange never settled")
    }

    // MARK: Steps

    /// The host's new ACL packets, reassembled into L2CAP frames; ATT frames go to the server.
    private func carryOutbound() -> Bool {
        let sent = fake.aclSent
        guard aclCursor < sent.count else { return false }
        for packet in sent[aclCursor...] {
            if packet.data.count > Int(fake.leBufferLength) {
                problems.append("ACL packet of \(packet.data.count) bytes for buffers of \(fake.leBufferLength)")
            }
            guard let p = peersByHandle[packet.handle] else { continue }
            var buffer: [UInt8]
            if packet.packetBoundary.isStart {
                if outboundPartial[packet.handle] != nil {
                    problems.append("new L2CAP frame on handle \(packet.handle) before the last one ended")
                }
                buffer = Array(packet.data)
            } else {
                guard let partial = outboundPartial[packet.handle] else {
                    problems.append("continuing ACL fragment on handle \(packet.handle) without a start")
                    continue
                }
                buffer = partial + packet.data
            }
            guard buffer.count >= 4 else {
                outboundPartial[packet.handle] = buffer
                continue
            }
            let length = Int(buffer[0]) | Int(buffer[1]) << 8
            if buffer.count < 4 + length {
                outboundPartial[packet.handle] = buffer
                continue
            }
            outboundPartial[packet.handle] = nil
            if buffer.count > 4 + length {
                problems.append("L2CAP frame on handle \(packet.handle) longer than its length field")
                continue
            }
            if !packet.packetBoundary.isStart { fragmentedOutboundFrames += 1 }
            let channel = UInt16(buffer[2]) | UInt16(buffer[3]) << 8
            let payload = Array(buffer[4...])
            if channel == 0x0004 {
                p.server.receive(payload)
            } else {
                p.otherFrames.append((channel, payload))
                if let answer = p.onFrame { p.outbox += answer(channel, payload).map { (channel, $0) } }
            }
        }
        aclCursor = sent.count
        return true
    }

    /// Connections the host no longer has: their handles are forgotten.
    private func forgetClosedConnections() {
        let open = Set(fake.pulledHost.links.compactMap { $0.connection?.handle })
        for (handle, p) in peersByHandle where !open.contains(handle) {
            peersByHandle[handle] = nil
            outboundPartial[handle] = nil
            p.handle = nil
        }
    }

    /// A pending LE Create Connection for a reachable peer completes on a fresh handle.
    private func completeConnection() -> Bool {
        guard let pending = fake.createPending,
              let p = peers.first(where: { $0.address == pending && $0.reachable && $0.handle == nil }) else { return false }
        let handle = nextHandle
        nextHandle += 1
        p.handle = handle
        p.connections += 1
        p.requestsBeforeThisConnection = p.server.requests.count
        p.server.newConnection()
        peersByHandle[handle] = p
        fake.connectionComplete(peer: pending, handle: handle)
        return true
    }

    /// Number Of Completed Packets for what the controller carried.
    private func completePackets() -> Bool {
        let inFlight = fake.aclInFlight.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        guard !inFlight.isEmpty else { return false }
        guard var left = completionsPerStep else {
            fake.completeAllPackets()
            return true
        }
        var entries: [(handle: UInt16, count: UInt16)] = []
        for (handle, count) in inFlight where left > 0 {
            let n = min(count, left)
            entries.append((handle, UInt16(n)))
            left -= n
        }
        fake.completePackets(entries)
        return true
    }

    /// Links the controller encrypted since the last look: their peers hear of it.
    private func noticeEncryption() -> Bool {
        let requests = fake.commands(LEEnableEncryption.self)
        guard encryptionCursor < requests.count else { return false }
        for e in requests[encryptionCursor...] where fake.encryptionStatus.isSuccess && fake.encryptionChangeStatus.isSuccess {
            if let p = peersByHandle[e.connectionHandle], let f = p.onEncrypted { p.outbox += f(e).map { (0x0006, $0) } }
        }
        encryptionCursor = requests.count
        return true
    }

    /// One frame from each connected peer — its other channels first, then its ATT server —
    /// in L2CAP, cut into ACL packets.
    private func carryInbound() -> Bool {
        var moved = false
        for p in peers {
            guard let handle = p.handle else { continue }
            let channel: UInt16
            let pdu: [UInt8]
            if !p.outbox.isEmpty {
                (channel, pdu) = p.outbox.removeFirst()
            } else if let att = p.server.nextForClient() {
                (channel, pdu) = (0x0004, att)
            } else {
                continue
            }
            moved = true
            let length = UInt16(pdu.count)
            let frame = [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(channel & 0xFF), UInt8(channel >> 8)] + pdu
            var start = 0
            while start < frame.count {
                let end = min(frame.count, start + inboundFragmentSize)
                fake.acl(handle: handle, boundary: start == 0 ? .firstFlushable : .continuing, Array(frame[start..<end]))
                inboundACLPackets += 1
                start = end
            }
        }
        return moved
    }

    private func observe() {
        maxCreditsInUse = max(maxCreditsInUse, fake.pulledHost.aclCreditsInUse)
        maxPacketsQueued = max(maxPacketsQueued, fake.pulledHost.aclPacketsQueued)
        if fake.pulledHost.aclCreditsInUse < 0 || fake.pulledHost.aclCreditsInUse > fake.pulledHost.aclCreditCapacity {
            problems.append("ACL credits in use \(fake.pulledHost.aclCreditsInUse) outside 0…\(fake.pulledHost.aclCreditCapacity)")
        }
        if fake.aclInFlightTotal > fake.aclCapacity {
            problems.append("\(fake.aclInFlightTotal) ACL packets in flight for \(fake.aclCapacity) buffers")
        }
    }
}

// MARK: - Reading the events

extension FakeController {
    func notifications(_ link: LinkID) -> [(handle: UInt16, value: [UInt8])] {
        events.compactMap {
            if case let .notification(l, h, v) = $0, l == link { return (h, Array(v)) } else { return nil }
        }
    }

    func indications(_ link: LinkID) -> [(handle: UInt16, value: [UInt8])] {
        events.compactMap {
            if case let .indication(l, h, v) = $0, l == link { return (h, Array(v)) } else { return nil }
        }
    }

    func subscriptions(_ link: LinkID) -> [(characteristic: BluetoothUUID, valueHandle: UInt16)] {
        events.compactMap {
            if case let .subscribed(l, c, h) = $0, l == link { return (c, h) } else { return nil }
        }
    }

    func databases(_ link: LinkID) -> [(database: GATTDatabase, fromCache: Bool)] {
        events.compactMap {
            if case let .databaseReady(l, db, cached) = $0, l == link { return (db, cached) } else { return nil }
        }
    }

    func mtuChanges(_ link: LinkID) -> [UInt16] {
        events.compactMap { if case let .mtuChanged(l, m) = $0, l == link { return m } else { return nil } }
    }

    func databaseChanges(_ link: LinkID) -> Int {
        events.filter { if case let .databaseChanged(l) = $0 { return l == link } else { return false } }.count
    }

    func result(_ op: OperationID) -> Result<GATTResult, HostError>? {
        for case let .operationCompleted(id, result) in events where id == op { return result }
        return nil
    }

    /// Index in `events` of the first event matching `match`.
    func index(where match: (HostEvent) -> Bool) -> Int? {
        events.firstIndex(where: match)
    }
}

extension FakeATTServer {
    /// Handle of the first attribute of this type (a characteristic value, a declaration).
    func handle(of type: BluetoothUUID, after start: UInt16 = 0) -> UInt16? {
        attributes.first { $0.type == type && $0.handle > start }?.handle
    }
}
