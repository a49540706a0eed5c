import HostCore
import Wire

/// One link a proxy client asked for: whose it is, where it lives, and what the client has been
/// told. It ends with the client's disconnect, the peer's, or the client going away.
struct ProxyLink {
    /// The API client that asked for it; only that client's requests reach it.
    let client: Int
    let address: UInt64
    let peer: DeviceAddress
    let adapter: Int
    let link: LinkID
    /// The client has the services cached (connect v3 with cache): no discovery.
    let withCache: Bool
    var mtu: UInt16 = 23
    /// The client was told the link is up (it is ready for GATT requests).
    var announced = false
    /// A disconnect was asked; the client is answered when the host reports the link gone.
    var disconnecting = false
    /// The link is encrypted (a pairing, a bond's key, or a peer's Security Request).
    var encrypted = false
    /// The client asked to pair: it is answered when the link is encrypted or security fails.
    var pairing = false
    /// Its client left (or was answered for an attempt given up): nobody is told anything more,
    /// and it holds its slot until the host reports it gone, so a new link to the same peer
    /// cannot meet that report.
    var orphaned = false
    /// Value handles whose notifications and indications the client takes (with remote caching
    /// it writes the CCCD itself: the proxy only forwards).
    var notifying: Set<UInt16> = []
    var database: GATTDatabase?
}

/// What a GATT operation in flight for a proxy client answers.
enum ProxyPending {
    case read(client: Int, address: UInt64, handle: UInt16)
    /// A write with response, to a value or (echoing its handle) a descriptor.
    case write(client: Int, address: UInt64, handle: UInt16)
    case services(client: Int, address: UInt64, shortUUIDs: Bool)
}
