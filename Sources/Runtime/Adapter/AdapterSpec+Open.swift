extension AdapterSpec {
    /// Opens the transport this spec names, ready to hand to `EventLoop.start`.
    ///
    /// HCI sockets parse today but open in later work; they throw
    /// `TransportError.unavailable` with a sentence saying what to use instead.
    public func openTransport(
        connectTimeout: UInt64 = TCPTransport.defaultConnectTimeout
    ) throws(TransportError) -> any HCITransport {
        switch self {
        case .tcp(let host, let port):
            return try TCPTransport(host: host, port: port, connectTimeout: connectTimeout)
        case .serial(let path, let baudRate, let flowControl):
            return try SerialTransport(path: path, baudRate: baudRate, flowControl: flowControl)
        case .hciSocket(let index):
            throw .unavailable(
                "HCI socket adapters (hci\(index)) are not available yet in this build; use tcp:HOST:PORT or a serial port")
        case .replay(let path):
            return try ReplayTransport(path: path)
        }
    }
}
