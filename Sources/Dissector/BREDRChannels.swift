import Wire

/// The connection-oriented channels of one BR/EDR link (Core Spec v5.4 Vol 3, Part A, §4.2–§4.7),
/// as a reader of the capture sees them from the BR/EDR signaling channel: which PSM each
/// dynamic CID belongs to, in which direction, and in which mode its frames travel.
///
/// Each channel has two ends (`ChannelEndpointKey`); an end knows the CID of the other, since
/// a Configuration Request names only the recipient's CID but configures the sender's end.
struct BREDRChannels {
    struct Endpoint {
        var psm: L2CAPPSM
        /// The host-side CID: names the channel (and its ATT bearer) the same both ways.
        var bearer: UInt16
        /// The CID of the channel's other end.
        var remoteCID: UInt16
        /// The largest SDU this end receives, from its owner's Configuration Request; nil
        /// until one is seen (the default is 672).
        var mtu: UInt16?
        var mode: L2CAPChannelMode = .basic
        /// This end's owner asked for no FCS (§5.5); the FCS is left out only when both ask.
        var asksNoFCS = false
        /// The second AVDTP channel of a link is its media transport (AVDTP §5.4.6), the first
        /// its signaling.
        var isMediaTransport = false
        /// This end's CID.
        var cid: UInt16
        /// The packet name (`L2CAP AVDTP media`), the summary's start (`PSM 0x0019: `) and the
        /// Channel field, made when the channel opens or is configured rather than for each of
        /// its frames: a media channel carries thousands.
        private(set) var name = ""
        private(set) var summaryPrefix = ""
        private(set) var channelText = ""

        init(psm: L2CAPPSM, cid: UInt16, bearer: UInt16, remoteCID: UInt16, isMediaTransport: Bool) {
            self.psm = psm
            self.cid = cid
            self.bearer = bearer
            self.remoteCID = remoteCID
            self.isMediaTransport = isMediaTransport
            describe()
        }

        var carriesATT: Bool { psm == .att }

        mutating func describe() {
            name = "L2CAP " + psm.name + (isMediaTransport ? " media" : "")
            summaryPrefix = "PSM " + Hex.lowerNumber(psm.rawValue, width: 4) + ": "
            channelText = "CID \(Hex.number(cid, width: 4)) (other end \(Hex.number(remoteCID, width: 4))), PSM \(psm)"
                + (isMediaTransport ? ", media transport" : "")
                + ", \(mode.name) mode, MTU \(mtu.map(String.init) ?? "672 (default)")"
        }
    }

    private struct PendingConnection {
        var psm: L2CAPPSM
        var sourceCID: UInt16
    }

    /// A Configuration Request waiting for its response: the two ends and what it asked.
    private struct PendingConfiguration {
        var sender: ChannelEndpointKey
        var recipient: ChannelEndpointKey
        var options: [L2CAPConfigurationOption]
    }

    private(set) var endpoints: [ChannelEndpointKey: Endpoint] = [:]
    private var pending: [SignalingRequestKey: PendingConnection] = [:]
    private var configurations: [SignalingRequestKey: PendingConfiguration] = [:]

    func endpoint(_ key: ChannelEndpointKey) -> Endpoint? { endpoints[key] }

    /// Whether frames to `key` carry a Frame Check Sequence: in the retransmission and
    /// streaming modes unless both ends asked for none.
    func hasFCS(_ key: ChannelEndpointKey) -> Bool {
        guard let ep = endpoints[key], ep.mode != .basic else { return false }
        let other = endpoints[ChannelEndpointKey(direction: key.direction.reversed, cid: ep.remoteCID)]
        return !(ep.asksNoFCS && (other?.asksNoFCS ?? false))
    }

    /// Follows the channel set-up, configuration and tear-down in one command travelling `direction`.
    mutating func apply(_ command: BREDRSignalingCommand, direction: Direction) {
        switch command {
        case let .connectionRequest(id, r):
            if pending.count >= 64 { pending.removeAll() }
            pending[SignalingRequestKey(direction: direction, identifier: id)] =
                PendingConnection(psm: r.psm, sourceCID: r.sourceCID.rawValue)
        case let .connectionResponse(id, r):
            let key = SignalingRequestKey(direction: direction.reversed, identifier: id)
            guard let request = pending[key], !r.result.isPending else { return }
            pending[key] = nil
            if r.result.isSuccess {
                open(request, requestDirection: key.direction, responder: r.destinationCID.rawValue)
            }
        case let .configurationRequest(id, r):
            // The recipient's end is named; the sender's is the one its options describe.
            // They take effect when the recipient accepts them.
            let recipient = ChannelEndpointKey(direction: direction, cid: r.destinationCID.rawValue)
            guard let ep = endpoints[recipient] else { return }
            if configurations.count >= 64 { configurations.removeAll() }
            configurations[SignalingRequestKey(direction: direction, identifier: id)] = PendingConfiguration(
                sender: ChannelEndpointKey(direction: direction.reversed, cid: ep.remoteCID), recipient: recipient,
                options: r.options)
        case let .configurationResponse(id, r):
            guard let request = configurations.removeValue(forKey: SignalingRequestKey(direction: direction.reversed, identifier: id)),
                  r.result.isSuccess else { return }
            for option in request.options {
                if let mtu = option.mtu { endpoints[request.sender]?.mtu = mtu }
                if let fcs = option.fcsType { endpoints[request.sender]?.asksNoFCS = fcs == 0 }
                if let rfc = option.retransmissionAndFlowControl { setMode(rfc.mode, request.sender, request.recipient) }
            }
            // A success may carry adjusted values (the mode's time-outs), never another mode.
            for option in r.options {
                if let rfc = option.retransmissionAndFlowControl { setMode(rfc.mode, request.sender, request.recipient) }
            }
            endpoints[request.sender]?.describe()
            endpoints[request.recipient]?.describe()
        case let .disconnectionResponse(_, p):
            // Destination CID: the end of the device sending the response; Source CID: the requester's.
            endpoints[ChannelEndpointKey(direction: direction.reversed, cid: p.destinationCID.rawValue)] = nil
            endpoints[ChannelEndpointKey(direction: direction, cid: p.sourceCID.rawValue)] = nil
        default:
            break
        }
    }

    private mutating func setMode(_ mode: L2CAPChannelMode, _ a: ChannelEndpointKey, _ b: ChannelEndpointKey) {
        endpoints[a]?.mode = mode
        endpoints[b]?.mode = mode
    }

    private mutating func open(_ request: PendingConnection, requestDirection: Direction, responder: UInt16) {
        let requester = request.sourceCID
        let bearer = requestDirection == .hostToController ? requester : responder
        if endpoints.count >= 256 { endpoints.removeAll() }
        let media = request.psm == .avdtp && endpoints.values.contains { $0.psm == .avdtp && !$0.isMediaTransport }
        // Data to the requester travels against the request; data to the responder with it.
        endpoints[ChannelEndpointKey(direction: requestDirection.reversed, cid: requester)] =
            Endpoint(psm: request.psm, cid: requester, bearer: bearer, remoteCID: responder, isMediaTransport: media)
        endpoints[ChannelEndpointKey(direction: requestDirection, cid: responder)] =
            Endpoint(psm: request.psm, cid: responder, bearer: bearer, remoteCID: requester, isMediaTransport: media)
    }
}
