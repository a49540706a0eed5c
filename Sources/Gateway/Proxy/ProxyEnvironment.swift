import HostCore
import Wire

/// What the proxy sees of the gateway around it when it acts: the adapters (their hosts and
/// learned slots), the links the gateway's own devices hold, and the GATT cache. Made by the
/// controller for each input, so the proxy keeps no second copy of any of it.
struct ProxyEnvironment {
    var adapters: [GatewayAdapter]
    /// Links the gateway's own devices hold on an adapter.
    var gatewayLinks: (Int) -> Int
    /// Whether one of the gateway's own devices holds a link to this peer.
    var gatewayHolds: (BDAddress) -> Bool
    var cache: GATTCacheStore?
    /// Forgets the bond with a peer, of either address type, on every adapter's host and in the
    /// state directory; false when there was none.
    var forgetBond: (BDAddress) -> Bool = { _ in false }

    func host(_ adapter: Int) -> (any Host)? {
        adapters.indices.contains(adapter) && adapters[adapter].isUp ? adapters[adapter].host : nil
    }
}
