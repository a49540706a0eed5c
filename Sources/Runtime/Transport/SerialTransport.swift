import Glibc

/// H4 over a UART (`/dev/ttyACM0`, `/dev/ttyUSB0`, a board's `/dev/ttyS1`): e.g. an nRF52 running
/// Zephyr's `hci_uart` sample, which defaults to 1000000 baud, 8N1, RTS/CTS.
///
/// The tty is opened with O_NOCTTY (a controller must never become our controlling terminal,
/// or its hang-up would SIGHUP us) and O_NONBLOCK, then put in raw mode: no echo, no line
/// editing, no CR/LF translation, no XON/XOFF (0x11/0x13 are ordinary HCI bytes), 8 data bits.
/// Buffers are flushed on open so stale bytes from a previous session do not reach the framer.
/// The port is locked (`flock`, exclusive, released on close) so that a second rtstack on the
/// same line is refused instead of splitting the controller's bytes with the first: nothing in
/// a tty stops two readers, and TIOCEXCL does not stop root.
///
/// Not thread-safe: see `HCITransport`.
public final class SerialTransport: DescriptorTransport {
    public let name: String
    public let path: String
    public let baudRate: Int
    public let flowControl: Bool
    public var framing: TransportFraming { .h4Stream }

    var io: DescriptorIO

    public static let defaultBaudRate = 1_000_000
    public static let defaultWriteQueueLimit = 1 << 20

    /// Opens and configures the port. `flowControl` enables RTS/CTS (CRTSCTS); without it a
    /// controller at 1 Mbit/s overruns easily, so turn it off only for wiring without RTS/CTS.
    public init(
        path: String,
        baudRate: Int = SerialTransport.defaultBaudRate,
        flowControl: Bool = true,
        writeQueueLimit: Int = SerialTransport.defaultWriteQueueLimit
    ) throws(TransportError) {
        guard let speed = SerialBaudRate.speed(for: baudRate) else { throw .unsupportedBaudRate(baudRate) }
        self.path = path
        self.name = path
        self.baudRate = baudRate
        self.flowControl = flowControl

        var fd: Int32
        repeat {
            fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        } while fd < 0 && currentErrno == EINTR
        guard fd >= 0 else { throw .openFailed(path: path, errno: currentErrno) }

        do throws(TransportError) {
            try Self.configure(fd, path: path, speed: speed, baudRate: baudRate, flowControl: flowControl)
        } catch {
            FileDescriptorFlags.closeIgnoringErrors(fd)
            throw error
        }
        self.io = DescriptorIO(fd: fd, name: path, writeCall: .plainWrite, queueLimit: writeQueueLimit, keepsPacketBoundaries: false)
    }

    deinit { io.close() }

    /// EIO on a tty, reading or writing, means its other end went away (USB adapter unplugged,
    /// pty master closed): the end of the stream, not a failed call.
    func reported(_ error: TransportError) -> TransportError {
        if case let .systemCall(_, code) = error, code == EIO { return .endOfStream(adapter: name) }
        return error
    }

    private static func configure(_ fd: Int32, path: String, speed: speed_t, baudRate: Int, flowControl: Bool) throws(TransportError) {
        guard isatty(fd) == 1 else { throw .notATerminal(path: path) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = currentErrno
            if code == EWOULDBLOCK { throw .portInUse(path: path) }
            throw .systemCall(operation: "flock \(path)", errno: code)
        }
        var tio = termios()
        guard tcgetattr(fd, &tio) == 0 else { throw .systemCall(operation: "tcgetattr \(path)", errno: currentErrno) }
        cfmakeraw(&tio)
        // CLOCAL: ignore modem-control lines (no DCD on these adapters); CREAD: enable receiver.
        tio.c_cflag |= tcflag_t(CLOCAL | CREAD)
        tio.c_cflag &= ~tcflag_t(CSTOPB)
        if flowControl {
            tio.c_cflag |= tcflag_t(CRTSCTS)
        } else {
            tio.c_cflag &= ~tcflag_t(CRTSCTS)
        }
        // Non-blocking anyway; VMIN 1 / VTIME 0 keeps the driver from timing out reads.
        withUnsafeMutableBytes(of: &tio.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard cfsetspeed(&tio, speed) == 0 else { throw .unsupportedBaudRate(baudRate) }
        guard tcsetattr(fd, TCSANOW, &tio) == 0 else { throw .systemCall(operation: "tcsetattr \(path)", errno: currentErrno) }

        // tcsetattr succeeds if *any* change was applied: read back what the driver kept.
        var applied = termios()
        guard tcgetattr(fd, &applied) == 0 else { throw .systemCall(operation: "tcgetattr \(path)", errno: currentErrno) }
        guard cfgetospeed(&applied) == speed else { throw .baudRateNotApplied(path: path, requested: baudRate) }

        _ = tcflush(fd, TCIOFLUSH)
    }
}

@available(*, unavailable, message: "a transport belongs to its event loop thread")
extension SerialTransport: Sendable {}
