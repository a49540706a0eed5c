extension AdapterSpec {
    /// Opens the transport this spec names, ready to hand to `EventLoop.start`.
    ///
    /// `hciN` takes the adapter's HCI user channel (`HCISocketTransport`); its failures come
    /// back as `TransportError.hciSocket` with their cause. `notice` is told what is done to
    /// the adapter on the way (an adapter found up is taken down, and brought back up on close).
    public func openTransport(
        connectTimeout: UInt64 = TCPTransport.defaultConnectTimeout,
        notice: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(TransportError) -> any HCITransport {
        switch self {
        case .tcp(let host, let port):
            return try TCPTransport(host: host, port: port, connectTimeout: connectTimeout)
        case .serial(let path, let baudRate, let flowControl):
            return try SerialTransport(path: path, baudRate: baudRate, flowControl: flowControl)
        case .hciSocket(let index):
            do throws(HCISocketError) {
                return try HCISocketTransport(index: index, notice: notice)
            } catch {
                throw .hciSocket(error)
            }
        case .replay(let path):
            return try ReplayTransport(path: path)
        }
    }
}
