import Glibc
import Testing
@testable import Runtime

/// Serial tests run over a pseudo-terminal: the master end plays the controller.
@Suite struct SerialTransportTests {
    @Test func rawModePassesEveryByteValueUnchanged() throws {
        let pty = PseudoTerminal()
        defer { pty.closeMaster() }
        let port = try SerialTransport(path: pty.path)
        defer { port.close() }
        pty.releaseInitialSlave()

        // Each byte value, including the ones a cooked tty rewrites or swallows: NUL, XON 0x11,
        // XOFF 0x13, CR 0x0D → LF, ^C 0x03 → SIGINT, ^D 0x04 EOF, DEL 0x7F, 0xFF.
        let all: [UInt8] = Array(0...255)

        // controller → host
        #expect(writeAll(pty.masterFD, all))
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        #expect(eventually {
            let n = (try? buffer.withUnsafeMutableBytes { try port.read(into: $0) }) ?? 0
            got += buffer[0..<n]
            return got.count >= all.count
        })
        #expect(got == all)

        // host → controller (output processing off: no LF → CR LF)
        try port.write(all)
        #expect(readBytes(pty.masterFD, count: 256) == all)
    }

    @Test func configuresRawEightBitBaudAndFlowControl() throws {
        let pty = PseudoTerminal()
        defer { pty.closeMaster() }
        let port = try SerialTransport(path: pty.path, baudRate: 1_000_000, flowControl: true)
        defer { port.close() }
        var tio = termios()
        #expect(tcgetattr(port.fd, &tio) == 0)
        #expect(cfgetospeed(&tio) == speed_t(B1000000))
        #expect(cfgetispeed(&tio) == speed_t(B1000000))
        #expect(tio.c_cflag & tcflag_t(CRTSCTS) != 0)
        #expect(tio.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(tio.c_cflag & tcflag_t(PARENB) == 0)
        #expect(tio.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0)
        #expect(tio.c_iflag & tcflag_t(IXON | ICRNL) == 0)
        #expect(tio.c_oflag & tcflag_t(OPOST) == 0)
        #expect(fcntl(port.fd, F_GETFL) & O_NONBLOCK != 0)
        #expect(port.framing == .h4Stream)
    }

    @Test func noFlowAndOtherRates() throws {
        let pty = PseudoTerminal()
        defer { pty.closeMaster() }
        let port = try SerialTransport(path: pty.path, baudRate: 115_200, flowControl: false)
        defer { port.close() }
        var tio = termios()
        #expect(tcgetattr(port.fd, &tio) == 0)
        #expect(cfgetospeed(&tio) == speed_t(B115200))
        #expect(tio.c_cflag & tcflag_t(CRTSCTS) == 0)
        #expect(port.flowControl == false && port.baudRate == 115_200)
    }

    @Test func everySupportedRateMapsToItsConstant() throws {
        let pty = PseudoTerminal()
        defer { pty.closeMaster() }
        for rate in SerialBaudRate.supported {
            let port = try SerialTransport(path: pty.path, baudRate: rate)
            var tio = termios()
            #expect(tcgetattr(port.fd, &tio) == 0)
            #expect(SerialBaudRate.rate(for: cfgetospeed(&tio)) == rate)
            port.close()
        }
        #expect(SerialBaudRate.supported.first == 1200 && SerialBaudRate.supported.last == 4_000_000)
    }

    @Test func unsupportedRateIsAnErrorNamingTheSupportedOnes() {
        let pty = PseudoTerminal()
        defer { pty.closeMaster() }
        do {
            _ = try SerialTransport(path: pty.path, baudRate: 1234)
            Issue.record("opened at 1234 baud")
        } catch {
            #expect(error == .unsupportedBaudRate(1234))
            #expect(error.description.contains("baud rate 1234 is not supported"))
            #expect(error.description.contains("115200"))
            #expect(error.description.contains("1000000"))
            #expect(error.description.contains("4000000"))
        }
    }

    @Test func missingDeviceAndNonTerminalAreNamed() {
        #expect(throws: TransportError.openFailed(path: "/dev/rtstack-missing", errno: ENOENT)) {
            _ = try SerialTransport(path: "/dev/rtstack-missing")
        }
        let message = TransportError.openFailed(path: "/dev/ttyUSB0", errno: ENOENT).description
        #expect(message.hasPrefix("cannot open /dev/ttyUSB0: No such file or directory (ENOENT)"))
        #expect(TransportError.openFailed(path: "/dev/ttyUSB0", errno: EACCES).description.contains("dialout"))

        #expect(throws: TransportError.notATerminal(path: "/dev/null")) {
            _ = try SerialTransport(path: "/dev/null")
        }
    }

    @Test func flushOnOpenDropsStaleBytes() throws {
        let pty = PseudoTerminal()
        defer { pty.closeMaster() }
        // Bytes the "controller" sent before we opened the port.
        #expect(writeAll(pty.masterFD, [0xDE, 0xAD]))
        usleep(20_000)
        let port = try SerialTransport(path: pty.path)
        defer { port.close() }
        pty.releaseInitialSlave()
        #expect(writeAll(pty.masterFD, [0x04, 0x0E]))
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(eventually {
            let n = (try? buffer.withUnsafeMutableBytes { try port.read(into: $0) }) ?? 0
            got += buffer[0..<n]
            return got.count >= 2
        })
        #expect(got == [0x04, 0x0E])
    }

    @Test func secondOpenOfTheSamePortIsRefusedUntilTheFirstCloses() throws {
        let pty = PseudoTerminal()
        defer { pty.closeMaster() }
        let first = try SerialTransport(path: pty.path)
        pty.releaseInitialSlave()
        #expect(throws: TransportError.portInUse(path: pty.path)) {
            _ = try SerialTransport(path: pty.path)
        }
        #expect(TransportError.portInUse(path: pty.path).description.contains("\(pty.path) is in use"))
        // The refused open did not disturb the first: bytes still reach it.
        #expect(writeAll(pty.masterFD, [0x04, 0x0E]))
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(eventually { ((try? buffer.withUnsafeMutableBytes { try first.read(into: $0) }) ?? 0) == 2 })
        first.close()
        let again = try SerialTransport(path: pty.path)
        again.close()
    }

    @Test func writingAfterTheControllerWentAwayIsEndOfStream() throws {
        let pty = PseudoTerminal()
        let port = try SerialTransport(path: pty.path)
        defer { port.close() }
        pty.releaseInitialSlave()
        pty.closeMaster()
        #expect(throws: TransportError.endOfStream(adapter: pty.path)) {
            try port.write([0x01, 0x03, 0x0C, 0x00])
        }
    }

    @Test func controllerGoneEndsTheLoop() throws {
        let pty = PseudoTerminal()
        let port = try SerialTransport(path: pty.path)
        pty.releaseInitialSlave()
        let log = EventLog()
        let loop = try startRecordingLoop(transport: port, log: log, echo: true)
        #expect(writeAll(pty.masterFD, [0x04, 0x0F, 0x04, 0x00, 0x01, 0x05, 0x20]))
        #expect(readBytes(pty.masterFD, count: 7) == [0x04, 0x0F, 0x04, 0x00, 0x01, 0x05, 0x20])
        pty.closeMaster()
        #expect(finishes(loop))
        #expect(log.closed == [.endOfStream(adapter: pty.path)])
    }
}
