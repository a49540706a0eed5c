/// Rebuilds L2CAP PDUs from the ACL packets of each link (Core Spec v5.4 Vol 3, Part A, §7.2
/// fragmentation and recombination; Vol 4, Part E, §5.4.2 Packet_Boundary_Flag).
///
/// Pure value: fed packets in arrival order, it returns frames and reports; it never traps and
/// never throws, since bad fragmentation is the peer's problem, not a reason to stop the link.
/// A frame that arrives whole in one packet is returned as a slice of that packet (no copy,
/// no allocation); only frames split over several packets are gathered into a buffer.
public struct ACLReassembler: Sendable {
    /// Largest L2CAP payload accepted, so a peer cannot make the host buffer 64 KiB per link
    /// (set it to the largest MTU the host offers). The length field is 16 bits, so the
    /// default 65535 means "no limit".
    public var maximumPayloadLength: Int

    private enum Partial: Sendable {
        /// L2CAP bytes so far, basic header included.
        case collecting([UInt8])
        /// An over-limit frame whose remaining continuations are swallowed.
        case discarding(announcedLength: Int, received: Int)

        var receivedBytes: Int {
            switch self {
            case let .collecting(buffer): return buffer.count
            case let .discarding(_, received): return received
            }
        }
    }

    private var partials: [UInt16: Partial] = [:]

    public init(maximumPayloadLength: Int = 65535) {
        self.maximumPayloadLength = maximumPayloadLength
    }

    /// Handles with an incomplete frame, ascending.
    public var handlesInProgress: [UInt16] { partials.keys.sorted() }

    public func isInProgress(handle: UInt16) -> Bool { partials[handle] != nil }

    /// Forgets the incomplete frame of a link (call it on Disconnection Complete, since a
    /// handle may be reused by the next connection). Returns how many bytes were dropped.
    @discardableResult
    public mutating func reset(handle: UInt16) -> Int {
        partials.removeValue(forKey: handle)?.receivedBytes ?? 0
    }

    /// Forgets every incomplete frame (controller reset).
    public mutating func resetAll() {
        partials.removeAll()
    }

    /// The frame `feed` would return for `packet` when it holds a whole L2CAP PDU in one start
    /// fragment, within the limit, and no frame is being gathered; nil in every other case (then
    /// call `feed`). Changes nothing: in that case `feed` would change nothing either. The data
    /// path uses it to skip building an `ACLReassemblyOutput` per notification.
    @inlinable
    public func wholeFrame(_ packet: ACLPacket) -> L2CAPFrame? {
        guard partialsAreEmpty, packet.header.packetBoundary.isStart else { return nil }
        let data = packet.data
        guard data.count >= L2CAPBasicHeader.size else { return nil }
        let s = data.startIndex
        let length = Int(data[s]) | Int(data[s + 1]) << 8
        guard length <= maximumPayloadLength, data.count == L2CAPBasicHeader.size + length else { return nil }
        let cid = L2CAPChannelID(UInt16(data[s + 2]) | UInt16(data[s + 3]) << 8)
        return L2CAPFrame(handle: packet.header.handle, channelID: cid, payload: data[(s + L2CAPBasicHeader.size)...])
    }

    @usableFromInline
    var partialsAreEmpty: Bool { partials.isEmpty }

    public mutating func feed(_ packet: ACLPacket) -> ACLReassemblyOutput {
        let handle = packet.header.handle
        let data = packet.data
        if !packet.header.packetBoundary.isStart {
            return continueFrame(handle: handle, data: data)
        }

        var output = ACLReassemblyOutput()
        if !partials.isEmpty, let previous = partials.removeValue(forKey: handle) {
            output.abandoned = .startWhileInProgress(handle: handle, receivedBytes: previous.receivedBytes)
        }
        guard data.count >= L2CAPBasicHeader.size else {
            // The basic header itself is split; wait for the rest.
            partials[handle] = .collecting(Array(data))
            return output
        }
        let s = data.startIndex
        let length = Int(data[s]) | Int(data[s + 1]) << 8
        let total = L2CAPBasicHeader.size + length
        if length > maximumPayloadLength {
            output.issue = .lengthAboveLimit(handle: handle, length: length, limit: maximumPayloadLength)
            if data.count < total {
                partials[handle] = .discarding(announcedLength: length, received: data.count)
            }
            return output
        }
        if data.count == total {
            // Fast path: the whole PDU is in this packet.
            let cid = L2CAPChannelID(UInt16(data[s + 2]) | UInt16(data[s + 3]) << 8)
            output.frame = L2CAPFrame(handle: handle, channelID: cid, payload: data[(s + L2CAPBasicHeader.size)...])
            return output
        }
        if data.count > total {
            output.issue = .overrun(handle: handle, announcedLength: length,
                                    receivedLength: data.count - L2CAPBasicHeader.size)
            return output
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(total)
        buffer.append(contentsOf: data)
        partials[handle] = .collecting(buffer)
        return output
    }

    private mutating func continueFrame(handle: UInt16, data: ArraySlice<UInt8>) -> ACLReassemblyOutput {
        guard var state = partials.removeValue(forKey: handle) else {
            return ACLReassemblyOutput(issue: .continuationWithoutStart(handle: handle, dataLength: data.count))
        }
        if case let .discarding(announced, received) = state {
            let now = received + data.count
            let total = L2CAPBasicHeader.size + announced
            if now < total {
                partials[handle] = .discarding(announcedLength: announced, received: now)
                return ACLReassemblyOutput()
            }
            if now == total { return ACLReassemblyOutput() }
            return ACLReassemblyOutput(issue: .overrun(handle: handle, announcedLength: announced,
                                                       receivedLength: now - L2CAPBasicHeader.size))
        }
        guard case var .collecting(buffer) = state else { return ACLReassemblyOutput() }
        // Drop the enum's reference so `buffer` is unique and appending does not copy it.
        state = .discarding(announcedLength: 0, received: 0)

        if buffer.count < L2CAPBasicHeader.size, buffer.count + data.count >= L2CAPBasicHeader.size {
            // The split basic header completes now: check the limit before buffering.
            func byte(_ i: Int) -> Int {
                i < buffer.count ? Int(buffer[i]) : Int(data[data.startIndex + i - buffer.count])
            }
            let length = byte(0) | byte(1) << 8
            if length > maximumPayloadLength {
                let now = buffer.count + data.count
                if now < L2CAPBasicHeader.size + length {
                    partials[handle] = .discarding(announcedLength: length, received: now)
                }
                return ACLReassemblyOutput(issue: .lengthAboveLimit(handle: handle, length: length,
                                                                    limit: maximumPayloadLength))
            }
            buffer.reserveCapacity(L2CAPBasicHeader.size + length)
        }
        buffer.append(contentsOf: data)
        guard buffer.count >= L2CAPBasicHeader.size else {
            partials[handle] = .collecting(buffer)
            return ACLReassemblyOutput()
        }
        let length = Int(buffer[0]) | Int(buffer[1]) << 8
        let total = L2CAPBasicHeader.size + length
        if buffer.count < total {
            partials[handle] = .collecting(buffer)
            return ACLReassemblyOutput()
        }
        if buffer.count > total {
            return ACLReassemblyOutput(issue: .overrun(handle: handle, announcedLength: length,
                                                       receivedLength: buffer.count - L2CAPBasicHeader.size))
        }
        let cid = L2CAPChannelID(UInt16(buffer[2]) | UInt16(buffer[3]) << 8)
        return ACLReassemblyOutput(frame: L2CAPFrame(handle: handle, channelID: cid,
                                                     payload: buffer[L2CAPBasicHeader.size...]))
    }
}
