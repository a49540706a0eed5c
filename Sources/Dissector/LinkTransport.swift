/// Which radio a connection runs over, from the event that opened it: HCI_Connection_Complete
/// for BR/EDR, an LE Connection Complete for LE. The two carry L2CAP differently — signaling
/// on CID 0x0001 or 0x0005, dynamic CIDs from 0x0040 up or 0x0040–0x007F, ATT on a
/// PSM 0x001F channel or on the fixed CID 0x0004 — so the decoder follows each its own way.
public enum LinkTransport: Sendable, Hashable {
    case le
    case brEdr

    /// `LE`, `BR/EDR`.
    public var name: String { self == .le ? "LE" : "BR/EDR" }
    /// `le`, `br-edr`: the value of the JSON keys that name a transport.
    public var jsonName: String { self == .le ? "le" : "br-edr" }
}
