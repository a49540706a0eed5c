/// Something wrong in the ACL fragment stream of one link. The reassembler reports these
/// instead of trapping or throwing, because a peer or controller that gets fragmentation wrong
/// must cost one frame, not the link; the host counts and logs them.
public enum ACLReassemblyIssue: Error, Hashable, Sendable, CustomStringConvertible {
    /// A continuing fragment arrived with no frame started on that handle; it was dropped.
    case continuationWithoutStart(handle: UInt16, dataLength: Int)
    /// A start fragment arrived while a frame was still incomplete; the incomplete frame
    /// (`receivedBytes` of it, L2CAP header included) was dropped and the new one kept.
    case startWhileInProgress(handle: UInt16, receivedBytes: Int)
    /// The fragments carry more than the L2CAP length announced; the frame was dropped.
    case overrun(handle: UInt16, announcedLength: Int, receivedLength: Int)
    /// The L2CAP length is above the configured limit; the frame and its continuations are
    /// dropped without being buffered.
    case lengthAboveLimit(handle: UInt16, length: Int, limit: Int)

    public var handle: UInt16 {
        switch self {
        case let .continuationWithoutStart(h, _), let .startWhileInProgress(h, _),
             let .overrun(h, _, _), let .lengthAboveLimit(h, _, _):
            return h
        }
    }

    public var description: String {
        switch self {
        case let .continuationWithoutStart(h, n):
            return "handle \(L2CAPText.hex16(h)): continuing fragment (\(n) bytes) without a start, dropped"
        case let .startWhileInProgress(h, n):
            return "handle \(L2CAPText.hex16(h)): new start while a frame was incomplete, dropped \(n) bytes"
        case let .overrun(h, announced, received):
            return "handle \(L2CAPText.hex16(h)): fragments carry \(received) bytes for L2CAP length \(announced), dropped"
        case let .lengthAboveLimit(h, length, limit):
            return "handle \(L2CAPText.hex16(h)): L2CAP length \(length) above limit \(limit), dropped"
        }
    }
}

/// What one ACL packet produced: at most one complete frame and at most two issues (one about
/// a frame it abandoned, one about itself). Plain optionals so the data path allocates nothing.
public struct ACLReassemblyOutput: Sendable, Hashable {
    /// The L2CAP frame this packet completed.
    public var frame: L2CAPFrame?
    /// An incomplete frame this packet's start pushed out (`.startWhileInProgress`).
    public var abandoned: ACLReassemblyIssue?
    /// What was wrong with this packet itself.
    public var issue: ACLReassemblyIssue?

    public init(frame: L2CAPFrame? = nil, abandoned: ACLReassemblyIssue? = nil, issue: ACLReassemblyIssue? = nil) {
        self.frame = frame
        self.abandoned = abandoned
        self.issue = issue
    }

    /// Both issues in order (allocates; for logging and tests).
    public var issues: [ACLReassemblyIssue] { [abandoned, issue].compactMap { $0 } }
}
