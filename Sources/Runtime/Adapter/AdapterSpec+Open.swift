extension AdapterSpec {
    /// Opens the transport this spec names, ready to hand to `EventLoop.start`.
    ///
    /// `hciN` takes the adapter's HCI user channel (`HCISocketTransport`); its failures come
    /// back as `TransportError.unavailable` carrying the `HCISocketError` text, which names
    /// the cause and the fix.
    public func openTransport(
        connectTimeout: UInt64 = TCPTransport.defaultConnectTimeout
    ) throws(TransportError) -> any HCITransport {
        switch self {
        case .tcp(let host, let port):
            return try TCPTransport(host: host, port: port, connectTimeout: connectTimeout)
        case .serial(let path, let baudRate, let flowControl):
            return try SerialTransport(path: path, baudRate: baudRate, flowControl: flowControl)
        case .hciSocket(let index):
            do throws(HCISocketError) {
                return try HCISocketTransport(index: index)
            } catch {
                throw .unavailable(error.description)
            }
        case .replay(let path):
            return try ReplayTransport(path: path)
        }
    }
}
