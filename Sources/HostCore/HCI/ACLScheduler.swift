import Wire

/// Host-to-controller ACL flow control (Core Spec v5.4 Vol 4, Part E, §4.1.1): the controller
/// has `capacity` ACL buffers; every packet sent takes one until the controller reports it done
/// in Number Of Completed Packets, or until its link's Disconnection Complete (§7.7.5: the
/// controller then forgets the link's packets without reporting them).
///
/// Each link has its own FIFO; links take turns (round-robin, one packet per turn), so a link
/// that queued a thousand writes cannot starve the notifications-enable write of another.
struct ACLScheduler: Sendable {
    /// A link's packets: queued and in flight.
    private struct LinkQueue: Sendable {
        var handle: UInt16
        var packets = PullQueue<HCIPacket>()
        var inFlight = 0

        var queuedCount: Int { packets.count }

        mutating func pop() -> HCIPacket? { packets.pop() }
    }

    /// What a Number Of Completed Packets entry did.
    enum Completion: Sendable, Equatable {
        case returned(Int)
        /// The handle has no open link (e.g. it went away and its credits already came back).
        case unknownHandle
        /// More completions than packets in flight: only `returned` were counted.
        case excess(returned: Int, reported: Int)
    }

    /// The controller's ACL buffer count: credits never go above it.
    private(set) var capacity: Int
    /// Largest data part of one ACL packet.
    private(set) var dataLength: Int
    /// Packets handed to the controller and not yet completed.
    private(set) var inUse = 0
    private var links: [LinkQueue] = []
    /// Where the next round-robin turn starts.
    private var cursor = 0

    init(capacity: Int = 0, dataLength: Int = 27) {
        self.capacity = max(0, capacity)
        self.dataLength = max(1, dataLength)
    }

    /// New limits after bring-up; every link and packet of the old controller is forgotten.
    mutating func reset(capacity: Int, dataLength: Int) {
        self.capacity = max(0, capacity)
        self.dataLength = max(1, min(dataLength, 65535))
        inUse = 0
        links.removeAll()
        queuedTotal = 0
        cursor = 0
    }

    var available: Int { capacity - inUse }

    func isOpen(_ handle: UInt16) -> Bool { index(of: handle) != nil }

    func inFlight(_ handle: UInt16) -> Int {
        index(of: handle).map { links[$0].inFlight } ?? 0
    }

    func queued(_ handle: UInt16) -> Int {
        index(of: handle).map { links[$0].queuedCount } ?? 0
    }

    /// Packets queued on every link, kept as a count so the data path can tell "nothing to
    /// send" without walking the links.
    private(set) var queuedTotal = 0

    /// Whether `next` would return a packet (a credit and a packet waiting).
    var hasSendable: Bool { queuedTotal > 0 && inUse < capacity }

    private func index(of handle: UInt16) -> Int? {
        links.firstIndex { $0.handle == handle }
    }

    /// A connection is up: packets may be queued for it.
    mutating func open(_ handle: UInt16) {
        if index(of: handle) == nil { links.append(LinkQueue(handle: handle)) }
    }

    /// A connection went away (Disconnection Complete): its packets in flight give their
    /// credits back and its queued packets are dropped. Returns (in flight, dropped).
    @discardableResult
    mutating func close(_ handle: UInt16) -> (returned: Int, dropped: Int) {
        guard let i = index(of: handle) else { return (0, 0) }
        let q = links.remove(at: i)
        inUse = max(0, inUse - q.inFlight)
        queuedTotal -= q.queuedCount
        if cursor > i { cursor -= 1 }
        if cursor >= links.count { cursor = 0 }
        return (q.inFlight, q.queuedCount)
    }

    /// Queues one L2CAP PDU (basic header added here) as ACL packets of at most `dataLength`
    /// bytes: the first with Packet_Boundary_Flag "first non-flushable", the others
    /// "continuing" (Vol 4, Part E, §5.4.2), the same cut `ACLFragmenter` makes. All packets
    /// are slices of one buffer, so a PDU costs one allocation however many fragments it has.
    /// Returns false when the handle has no open link.
    @discardableResult
    mutating func enqueue(handle: UInt16, channel: L2CAPChannelID, payload: ArraySlice<UInt8>) -> Bool {
        guard let i = index(of: handle) else { return false }
        let size = dataLength
        let pduLength = L2CAPBasicHeader.size + payload.count
        let fragments = (pduLength + size - 1) / size
        var buffer: [UInt8] = []
        buffer.reserveCapacity(pduLength + fragments * ACLHeader.size)
        // L2CAP basic header (Vol 3, Part A, §3.1): Length, Channel ID.
        let length = UInt16(truncatingIfNeeded: payload.count)
        func basicHeaderByte(_ offset: Int) -> UInt8 {
            switch offset {
            case 0: return UInt8(truncatingIfNeeded: length)
            case 1: return UInt8(truncatingIfNeeded: length >> 8)
            case 2: return UInt8(truncatingIfNeeded: channel.rawValue)
            default: return UInt8(truncatingIfNeeded: channel.rawValue >> 8)
            }
        }
        var written = 0
        while written < pduLength {
            let end = written + min(size, pduLength - written)
            let pb: ACLPacketBoundary = written == 0 ? .firstNonFlushable : .continuing
            let handleAndFlags = (handle & 0x0FFF) | UInt16(pb.rawValue) << 12
            let chunk = end - written
            buffer.append(UInt8(truncatingIfNeeded: handleAndFlags))
            buffer.append(UInt8(truncatingIfNeeded: handleAndFlags >> 8))
            buffer.append(UInt8(truncatingIfNeeded: chunk))
            buffer.append(UInt8(truncatingIfNeeded: chunk >> 8))
            var offset = written
            while offset < min(end, L2CAPBasicHeader.size) {
                buffer.append(basicHeaderByte(offset))
                offset += 1
            }
            if end > offset {
                let from = payload.startIndex + (offset - L2CAPBasicHeader.size)
                let to = payload.startIndex + (end - L2CAPBasicHeader.size)
                buffer.append(contentsOf: payload[from..<to])
            }
            written = end
        }
        // Every packet but the last holds `size` data bytes, so the n-th starts at n × (size + 4).
        var start = 0
        while start < buffer.count {
            let end = min(buffer.count, start + size + ACLHeader.size)
            links[i].packets.append(HCIPacket(type: .acl, bytes: buffer[start..<end]))
            queuedTotal += 1
            start = end
        }
        return true
    }

    /// The next packet for the controller when a credit is free, taking links in turn.
    mutating func next() -> HCIPacket? {
        guard inUse < capacity, !links.isEmpty else { return nil }
        let n = links.count
        for k in 0..<n {
            let i = (cursor + k) % n
            if let p = links[i].pop() {
                links[i].inFlight += 1
                inUse += 1
                queuedTotal -= 1
                cursor = (i + 1) % n
                return p
            }
        }
        return nil
    }

    /// One entry of Number Of Completed Packets. Never lets credits go negative.
    mutating func completed(handle: UInt16, count: Int) -> Completion {
        guard let i = index(of: handle) else { return .unknownHandle }
        let n = min(max(0, count), links[i].inFlight)
        links[i].inFlight -= n
        inUse = max(0, inUse - n)
        return n == count ? .returned(n) : .excess(returned: n, reported: count)
    }
}
