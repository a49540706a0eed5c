import Wire

/// One peer the application asked for, for its whole life: across connection attempts,
/// connections and reconnections it keeps its `LinkID`, its plan and its backoff count.
/// While connected it owns the connection handle, the L2CAP reassembly and the GATT session.
final class Link {
    let id: LinkID
    let peer: DeviceAddress
    var plan: LinkPlan
    /// The host's side of the state; while connected the GATT session's state is the truth
    /// (see `effectiveState`).
    var state: LinkState
    var handle: UInt16?
    var connection: ConnectionInfo?
    @exclusivity(unchecked) var session: GATTSession?
    @exclusivity(unchecked) var reassembler: ACLReassembler
    /// Connection attempts and reconnections since the link was last `ready`: the backoff
    /// grows with it (`ReconnectPolicy.delay(afterAttempt:)`).
    var attempts = 0
    /// When the reconnect backoff ends (`.waitingToReconnect`).
    var reconnectAt: HostTime?
    /// The application asked for the disconnection: no reconnect follows it.
    var closing = false
    /// A Disconnect for the current connection has been sent (by the application's wish or
    /// because its GATT session failed). A second one would be redundant, and a controller may
    /// refuse it while the first is under way (the host would then report a failed Disconnect),
    /// so none is sent; the application's wish is still kept in `closing`.
    var disconnectSent = false

    init(id: LinkID, peer: DeviceAddress, plan: LinkPlan, maximumPayload: Int) {
        self.id = id
        self.peer = peer
        self.plan = plan
        state = .queued
        reassembler = ACLReassembler(maximumPayloadLength: maximumPayload)
    }

    /// The GATT session drives the states after `connected`.
    var effectiveState: LinkState {
        if state == .connected, let s = session { return s.state }
        return state
    }

    /// Whether the plan's policy allows one more attempt.
    var mayRetry: Bool {
        guard let policy = plan.reconnect else { return false }
        if let max = policy.maximumAttempts { return attempts < max }
        return true
    }
}
