import Wire

extension HostError {
    /// The failure and what to do about it, on one line (the session's notices, the gateway's log).
    public var explanation: String { "\(description); \(remedy)" }

    /// What the user can do about the failure. `description` names the cause; this says what to
    /// try, for every case (a new case does not compile without one), so that every command,
    /// the session and the gateway give the same advice. Front ends add what only they know
    /// (how rtstack was started: a terminal, `--passkey`, the command's own options).
    public var remedy: String {
        switch self {
        case let .commandFailed(opcode, status):
            return status.hint ?? "the controller refused \(opcode.description): try again; if it keeps refusing, reset the "
                + "controller (unplug it, or power it off and on)"
        case .commandTimeout:
            return "the controller stopped answering: check its cable or transport (a serial port's baud rate and flow "
                + "control, a TCP bridge that is still running), then replug or power-cycle it"
        case .connectTimeout:
            return Self.absentPeer
        case let .connectionFailed(status):
            return Self.linkRemedy(status)
        case let .disconnected(reason):
            return Self.linkRemedy(reason)
        case let .att(error, request, _):
            return ATTErrorCode(error).remedy(for: ATTOpcode(request))
        case .attTimeout:
            return "run the command again (a new link carries ATT again); if the same request times out again, the peer "
                + "does not support it: leave out the option that asks for it"
        case .protocolViolation:
            return "a defect in the peer: record it with --capture FILE (rtstack decode FILE shows the answer) and report it "
                + "to the peer's maker"
        case .notFound:
            return "check the UUID or handle against what the peer has: rtstack gatt ADDRESS lists its services and characteristics"
        case .controller:
            return "if it happens again, replug or power-cycle the controller and check its power supply (rtstack resets a "
                + "controller that reports a hardware error once)"
        case .invalidState:
            return "change what the reason names (a shorter value, fewer handles, the order of the steps) and run it again"
        case .unsupportedByPeer:
            return "use a request the peer supports: the command's --help names the alternatives"
        case let .adapter(_, failure):
            return failure.remedy
        case let .security(failure):
            return failure.remedy
        }
    }

    /// A device that never answered the connection attempt.
    static let absentPeer = "check that the device is on, in range, advertising connectably and not connected to another "
        + "central (rtstack scan shows what advertises)"

    /// What to do about a link that could not be made or was lost with this status.
    static func linkRemedy(_ status: HCIStatus) -> String {
        switch status {
        case .remoteUserTerminatedConnection:
            return "the peer ended the link: run the command again; a peer that always ends it at the same point may want "
                + "pairing first (rtstack pair ADDRESS), or accept only the central it is bonded with"
        case .connectionTerminatedByLocalHost:
            return "rtstack ended the link (the message before this one says why)"
        case .connectionFailedToBeEstablished:
            return "the peer did not answer the connection request: " + absentPeer
        default:
            return status.hint ?? "run the command again; if links keep dropping, move the devices closer together"
        }
    }
}
