/// Names a link for its whole life, across reconnections to the same peer. Connection
/// handles are reused by controllers, so applications hold this instead.
public struct LinkID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static func < (l: LinkID, r: LinkID) -> Bool { l.rawValue < r.rawValue }
    public var description: String { "link\(rawValue)" }
}
