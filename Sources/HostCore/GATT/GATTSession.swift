import Wire

/// Where a link's GATT side sends its output. Implemented by `Host`.
public protocol GATTSessionOutput: AnyObject {
    /// An ATT PDU for the peer; the host wraps it in L2CAP (CID 0x0004) and queues it as ACL.
    func sendATT(_ pdu: [UInt8], on link: LinkID)
    func deliver(_ event: HostEvent)
}

/// The ATT bearer and GATT client of one connected link, and the link's plan from
/// "connected" to "ready" (MTU, discovery or cache, subscriptions).
///
/// INTERFACE STUB: the GATT work replaces this file's body; the signatures stay.
public final class GATTSession {
    public let link: LinkID
    public private(set) var plan: LinkPlan
    public private(set) var state: LinkState = .connected
    public private(set) var mtu: UInt16 = 23
    public private(set) var database: GATTDatabase?
    private unowned let output: GATTSessionOutput

    public init(link: LinkID, plan: LinkPlan, output: GATTSessionOutput) {
        self.link = link
        self.plan = plan
        self.output = output
    }

    /// The link is up: start the plan.
    public func linkUp(at now: HostTime) {}

    /// A complete ATT PDU received on CID 0x0004 (a slice of the received packet).
    public func receive(_ pdu: ArraySlice<UInt8>, at now: HostTime) {}

    public func perform(_ operation: GATTOperation, id: OperationID, at now: HostTime) {}

    public var nextDeadline: HostTime? { nil }

    public func advanceTime(to now: HostTime) {}

    /// The link went away: every pending operation fails with `.disconnected(reason)`.
    public func linkDown(reason: HCIStatus) {}
}
