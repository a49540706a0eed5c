import HostCore
import Wire

extension Peripheral {
    /// What happens to the link from now on (`LinkEvent`): its MTU (the current one first),
    /// Service Changed, and its end, after which the stream finishes. A stream asked for after
    /// the link went down finishes at once, without an event; so does every stream when the
    /// adapter is lost or closed.
    public func events() -> AsyncStream<LinkEvent> {
        let (stream, continuation) = AsyncStream<LinkEvent>.makeStream(bufferingPolicy: .unbounded)
        let link = self.link
        let ok = central.onLoop { _, bridge in
            guard bridge.connections[link] != nil, !bridge.closed else { return continuation.finish() }
            if let mtu = bridge.mtus[link] { continuation.yield(.mtuChanged(mtu)) }
            bridge.linkWatchers[link, default: []].append(continuation)
        }
        if !ok { continuation.finish() }
        return stream
    }

    /// Whether the link is still up (false once it went down for good, or the adapter closed):
    /// a stream that ended tells its reader nothing about why.
    public func isConnected() async -> Bool {
        let link = self.link
        return await withCheckedContinuation { c in
            let ok = central.onLoop { _, bridge in c.resume(returning: bridge.connections[link] != nil && !bridge.closed) }
            if !ok { c.resume(returning: false) }
        }
    }
}
