import Glibc

/// Why a transport could not be opened, or why it stopped.
///
/// Every case prints a sentence that names what failed and, where we can tell, what to do
/// next; the CLI shows `description` as is.
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer closed the connection or the device reported end of file.
    case endOfStream(adapter: String)
    /// The stream ended (end of file, or reset) while an H4 packet was only partly received:
    /// `partialBytes` bytes of it are lost, every packet before them was handled.
    case closedMidPacket(adapter: String, partialBytes: Int)
    /// The peer reset the connection (ECONNRESET, EPIPE).
    case connectionReset(adapter: String)
    /// Nothing is listening on `endpoint` ("127.0.0.1:9000").
    case connectionRefused(endpoint: String)
    /// No answer to the TCP handshake within the connect timeout.
    case connectTimedOut(endpoint: String, milliseconds: UInt64)
    /// `getaddrinfo` could not resolve the host; `detail` is its message.
    case hostNotFound(host: String, detail: String)
    /// Opening a device path failed (ENOENT, EACCES, EBUSY …).
    case openFailed(path: String, errno: Int32)
    /// The path exists but is not a terminal, so it cannot be a serial port.
    case notATerminal(path: String)
    /// Another process holds the port's lock (another rtstack on the same line).
    case portInUse(path: String)
    /// The baud rate is not one the Linux termios interface offers.
    case unsupportedBaudRate(Int)
    /// The serial driver did not keep the requested baud rate (read back a different one).
    case baudRateNotApplied(path: String, requested: Int)
    /// Outgoing bytes waiting for the descriptor to drain would exceed `limit` bytes: the
    /// controller stopped reading (flow control stuck, device hung). The write was not started.
    case writeQueueFull(adapter: String, limit: Int)
    /// The transport was used after `close()`.
    case closed(adapter: String)
    /// An adapter form this build can parse but not open yet.
    case unavailable(String)
    /// The HCI user channel (`hciN`) could not be had: its cause.
    case hciSocket(HCISocketError)
    /// Any other failed system call, with its errno.
    case systemCall(operation: String, errno: Int32)

    /// Whether the transport is unusable afterwards (the loop then ends with `transportClosed`).
    /// A full write queue only rejects that one write.
    public var endsTransport: Bool {
        if case .writeQueueFull = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .endOfStream(let adapter):
            return "\(adapter): the controller closed the connection (end of stream)"
        case .closedMidPacket(let adapter, let partialBytes):
            return "\(adapter): the controller side closed the connection in the middle of a packet (\(partialBytes) byte(s) of an unfinished H4 packet lost)"
        case .connectionReset(let adapter):
            return "\(adapter): the connection was reset by the controller side"
        case .connectionRefused(let endpoint):
            return "no controller listening on \(endpoint) (connection refused)"
        case .connectTimedOut(let endpoint, let ms):
            return "no answer from \(endpoint) within \(ms) ms (connect timed out); check the host and port, and any firewall"
        case .hostNotFound(let host, let detail):
            return "cannot resolve host '\(host)': \(detail)"
        case .openFailed(let path, let code):
            return "cannot open \(path): \(describeErrno(code))\(Self.openHint(code))"
        case .notATerminal(let path):
            return "\(path) is not a serial port (not a terminal device)"
        case .portInUse(let path):
            return "\(path) is in use: another process (another rtstack?) holds it locked; two hosts on one H4 line would each read part of the other's packets, so stop the other one first"
        case .unsupportedBaudRate(let rate):
            return "baud rate \(rate) is not supported; supported rates: \(SerialBaudRate.supportedList)"
        case .baudRateNotApplied(let path, let requested):
            return "\(path): the serial driver did not accept baud rate \(requested)"
        case .writeQueueFull(let adapter, let limit):
            return "\(adapter): more than \(limit) bytes wait to be sent; the controller is not reading (flow control stuck?)"
        case .closed(let adapter):
            return "\(adapter): the transport is closed"
        case .hciSocket(let e):
            return e.description
        case .unavailable(let message):
            return message
        case .systemCall(let operation, let code):
            return "\(operation) failed: \(describeErrno(code))"
        }
    }

    private static func openHint(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "; is the adapter plugged in? (ls /dev/ttyUSB* /dev/ttyACM*)"
        case EACCES: return "; add your user to the 'dialout' group or run with access to the device"
        case EBUSY: return "; another program (ModemManager, a serial console, btattach) holds the device"
        default: return ""
        }
    }
}
