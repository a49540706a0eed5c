/// Status / error code carried by HCI events (Core Spec Vol 1, Part F, §1.3). Kept as a raw
/// value so that codes newer than this table still round-trip.
public struct HCIStatus: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = HCIStatus(rawValue: 0x00)

    public var isSuccess: Bool { rawValue == 0 }
}
