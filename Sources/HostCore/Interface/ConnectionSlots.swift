import Wire

extension HostError {
    /// Whether the controller refused a connection for want of room — Connection Limit Exceeded
    /// (0x09) or Memory Capacity Exceeded (0x07), in LE Create Connection's Command Status or in
    /// the LE Connection Complete that ends the attempt. The adapter is full, the peer did nothing
    /// wrong: another adapter may take the link. Controllers report no slot count over HCI, so a
    /// refusal is how one is learned (the links up at that moment are all it takes).
    public var isConnectionLimit: Bool {
        switch self {
        case let .commandFailed(_, status), let .connectionFailed(status):
            return status == .connectionLimitExceeded || status == .memoryCapacityExceeded
        default:
            return false
        }
    }
}

extension ControllerInfo {
    /// The most links as central that the controller's LE Supported States allow, when they
    /// limit it: 1 for a controller that cannot initiate while it is central already (Core Spec
    /// Vol 4, Part E, §7.8.27, "Initiating State and Connection State (Central Role)"); nil when
    /// the states are unknown or allow more (how many more only a refusal tells).
    public var centralLinkLimit: Int? {
        guard leStates != 0 else { return nil }
        return LESupportedStates(rawValue: leStates).contains(.initiatingAndCentral) ? nil : 1
    }
}
