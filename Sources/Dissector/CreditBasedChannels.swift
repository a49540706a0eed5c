import Wire

/// The credit-based L2CAP channels of one link (Core Spec v5.4 Vol 3, Part A, §3.4 K-frames,
/// §4.22–§4.28 signaling), as a reader of the capture sees them: which SPSM each dynamic CID
/// belongs to, in which direction, and the SDU each is in the middle of.
///
/// A channel has two endpoints, one per device; data to the host's endpoint travels
/// controller → host and carries the host's CID, data to the peer's endpoint travels
/// host → controller and carries the peer's. Each is keyed by (direction, CID) and has its own
/// SDU reassembly.
struct CreditBasedChannels {
    /// The SPSM of Enhanced ATT (Assigned Numbers, "Protocol and Service Multiplexers").
    static let eattSPSM: UInt16 = 0x0027

    struct Endpoint {
        var spsm: UInt16
        var enhanced: Bool
        /// The receiving endpoint's MTU and MPS.
        var mtu: UInt16
        var mps: UInt16
        /// The host-side CID of the channel: names its ATT bearer, the same both ways.
        var bearer: UInt16
        /// Octets of the SDU gathered so far and the SDU Length its first K-frame gave.
        var sdu: [UInt8] = []
        var sduLength: Int?

        var isEATT: Bool { spsm == CreditBasedChannels.eattSPSM }
    }

    typealias Key = ChannelEndpointKey
    typealias PendingKey = SignalingRequestKey

    struct Pending {
        var spsm: UInt16
        var enhanced: Bool
        var mtu: UInt16
        var mps: UInt16
        var sourceCIDs: [UInt16]
    }

    private(set) var endpoints: [Key: Endpoint] = [:]
    private var pending: [PendingKey: Pending] = [:]

    var isEmpty: Bool { endpoints.isEmpty }

    func endpoint(_ key: Key) -> Endpoint? { endpoints[key] }

    /// Follows the channel set-up and tear-down in one LE signaling command travelling `direction`.
    mutating func apply(_ command: LESignalingCommand, direction: Direction) {
        switch command {
        case let .leCreditBasedConnectionRequest(id, r):
            remember(PendingKey(direction: direction, identifier: id),
                     Pending(spsm: r.spsm, enhanced: false, mtu: r.mtu, mps: r.mps, sourceCIDs: [r.sourceCID.rawValue]))
        case let .creditBasedConnectionRequest(id, r):
            remember(PendingKey(direction: direction, identifier: id),
                     Pending(spsm: r.spsm, enhanced: true, mtu: r.mtu, mps: r.mps, sourceCIDs: r.sourceCIDs.map(\.rawValue)))
        case let .leCreditBasedConnectionResponse(id, r):
            let key = PendingKey(direction: direction.reversed, identifier: id)
            guard let request = pending.removeValue(forKey: key), !request.enhanced else { return }
            if r.result.isSuccess, let source = request.sourceCIDs.first {
                open(request, requestDirection: key.direction, requester: source, responder: r.destinationCID.rawValue,
                     responderMTU: r.mtu, responderMPS: r.mps)
            }
        case let .creditBasedConnectionResponse(id, r):
            let key = PendingKey(direction: direction.reversed, identifier: id)
            guard let request = pending[key], request.enhanced else { return }
            if r.result.isPending { return }   // the final answer follows with the same identifier
            pending[key] = nil
            guard r.result.opensChannels else { return }
            for (source, destination) in zip(request.sourceCIDs, r.destinationCIDs) where destination != .null {
                open(request, requestDirection: key.direction, requester: source, responder: destination.rawValue,
                     responderMTU: r.mtu, responderMPS: r.mps)
            }
        case let .creditBasedReconfigureRequest(_, r):
            // The CIDs are the sender's endpoints, which receive what travels the other way.
            for cid in r.destinationCIDs {
                let key = Key(direction: direction.reversed, cid: cid.rawValue)
                endpoints[key]?.mtu = r.mtu
                endpoints[key]?.mps = r.mps
            }
        case let .disconnectionResponse(_, p):
            // Destination CID: the endpoint of the device sending the response; Source CID:
            // the requester's.
            endpoints[Key(direction: direction.reversed, cid: p.destinationCID.rawValue)] = nil
            endpoints[Key(direction: direction, cid: p.sourceCID.rawValue)] = nil
        default:
            break
        }
    }

    /// Keeps at most a few unanswered requests: a capture full of requests nobody answers
    /// must not grow the table without bound.
    private mutating func remember(_ key: PendingKey, _ request: Pending) {
        if pending.count >= 64 { pending.removeAll() }
        pending[key] = request
    }

    private mutating func open(_ request: Pending, requestDirection: Direction, requester: UInt16, responder: UInt16,
                               responderMTU: UInt16, responderMPS: UInt16) {
        // The host's endpoint is the requester's when the host asked.
        let bearer = requestDirection == .hostToController ? requester : responder
        if endpoints.count >= 256 { endpoints.removeAll() }
        // Data to the requester travels against the request; data to the responder with it.
        endpoints[Key(direction: requestDirection.reversed, cid: requester)] =
            Endpoint(spsm: request.spsm, enhanced: request.enhanced, mtu: request.mtu, mps: request.mps, bearer: bearer)
        endpoints[Key(direction: requestDirection, cid: responder)] =
            Endpoint(spsm: request.spsm, enhanced: request.enhanced, mtu: responderMTU, mps: responderMPS, bearer: bearer)
    }

    /// What one K-frame on a dynamic channel amounts to.
    enum KFrame {
        /// No set-up for this CID in the capture so far.
        case unknownChannel
        /// Part of an SDU: `have` of `total` octets so far.
        case segment(Endpoint, have: Int, total: Int, first: Bool)
        /// A whole SDU (the last K-frame of it, or the only one).
        case sdu(Endpoint, ArraySlice<UInt8>, segments: Bool)
        /// A K-frame that cannot belong to the SDU; what was gathered is dropped.
        case malformed(Endpoint, String)
    }

    /// Adds one K-frame's information payload to its channel's SDU (§3.4.3: the first K-frame
    /// of an SDU starts with the 2-octet SDU Length).
    mutating func receive(_ payload: ArraySlice<UInt8>, on key: Key) -> KFrame {
        guard var ep = endpoints[key] else { return .unknownChannel }
        defer { endpoints[key] = ep }
        if let total = ep.sduLength {
            guard ep.sdu.count + payload.count <= total else {
                let reason = "K-frame of \(payload.count) octets overruns the SDU: \(ep.sdu.count) of \(total) octets were gathered (dropped)"
                ep.sdu.removeAll(keepingCapacity: true)
                ep.sduLength = nil
                return .malformed(ep, reason)
            }
            ep.sdu.append(contentsOf: payload)
            if ep.sdu.count < total { return .segment(ep, have: ep.sdu.count, total: total, first: false) }
            let sdu = ep.sdu
            ep.sdu = []
            ep.sduLength = nil
            return .sdu(ep, sdu[...], segments: true)
        }
        guard payload.count >= 2 else {
            return .malformed(ep, "first K-frame of an SDU has \(payload.count) octet(s), too short for the SDU Length")
        }
        let b = payload.startIndex
        let total = Int(payload[b]) | Int(payload[b + 1]) << 8
        let data = payload.dropFirst(2)
        if data.count > total {
            return .malformed(ep, "K-frame carries \(data.count) octets of an SDU of \(total)")
        }
        if data.count == total { return .sdu(ep, data, segments: false) }
        ep.sduLength = total
        ep.sdu.removeAll(keepingCapacity: true)
        ep.sdu.append(contentsOf: data)
        return .segment(ep, have: data.count, total: total, first: true)
    }
}
