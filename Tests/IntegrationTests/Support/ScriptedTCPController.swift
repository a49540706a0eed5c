import Foundation
import Glibc
import Synchronization
import TestSupport
import Wire

/// A controller behind a TCP port (H4 framing, like Bumble's `tcp-server`) that plays a script:
/// it answers bring-up and the scan commands as Core Spec v5.4 Vol 4, Part E, §7 lays them out,
/// then misbehaves as the script says. One connection, served on its own thread.
final class ScriptedTCPController: @unchecked Sendable {
    enum Script: Sendable {
        /// Once scanning is enabled: `advertisements` LE Advertising Reports, then the first
        /// `partialBytes` bytes of one more, then the end of the stream.
        case cutMidPacket(advertisements: Int, partialBytes: Int)
        /// Every command is answered but this one.
        case neverAnswer(HCIOpcode)
        /// Once scanning is enabled: two LE Advertising Reports (devices 0 and 1), then a
        /// Hardware Error event (§7.7.16). With `recover`, the controller then answers the
        /// reset and bring-up, and reports devices 10 and 11 once scanning is enabled again;
        /// without, it answers nothing more.
        case hardwareErrorAfterScan(recover: Bool)
    }

    let port: UInt16
    let script: Script
    private let listenFD: Int32
    private let state = Mutex(State())

    private struct State {
        var commandsReceived: [HCIOpcode] = []
        /// Complete H4 packets sent (controller → host), the cut one not included.
        var packetsSent = 0
        var cut = false
        var stop = false
        var failure: String?
    }

    var commandsReceived: [HCIOpcode] { state.withLock { $0.commandsReceived } }
    var packetsSent: Int { state.withLock { $0.packetsSent } }
    var hasCut: Bool { state.withLock { $0.cut } }
    var failure: String? { state.withLock { $0.failure } }

    init(_ script: Script) throws {
        self.script = script
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw IntegrationFailure("socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            close(fd)
            throw IntegrationFailure("bind/listen on 127.0.0.1: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listenFD = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// `--adapter tcp:127.0.0.1:PORT`.
    var adapterArguments: [String] { ["--adapter", "tcp:127.0.0.1:\(port)"] }

    func stop() {
        state.withLock { $0.stop = true }
    }

    deinit {
        stop()
    }

    // MARK: Serving

    private var stopped: Bool { state.withLock { $0.stop } }

    private func serve() {
        defer { close(listenFD) }
        var fd: Int32 = -1
        while fd < 0 {
            if stopped { return }
            var p = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 100) > 0 { fd = accept(listenFD, nil, nil) }
        }
        defer { close(fd) }
        var input: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var writing = true
        while !stopped {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }  // the host closed its side
            input += buffer[0..<n]
            while writing, let command = Self.nextCommand(&input) {
                state.withLock { $0.commandsReceived.append(command.opcode) }
                for output in respond(to: command) {
                    switch output {
                    case let .packet(bytes):
                        guard send(bytes, on: fd) else { return }
                        state.withLock { $0.packetsSent += 1 }
                    case let .cut(bytes):
                        _ = send(bytes, on: fd)
                        // FIN after the partial packet (not RST: everything read so far was
                        // consumed), then wait for the host to close.
                        shutdown(fd, Int32(SHUT_WR))
                        state.withLock { $0.cut = true }
                        writing = false
                    }
                }
            }
            if !writing { input.removeAll() }
        }
    }

    private func send(_ bytes: [UInt8], on fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 {
                state.withLock { $0.failure = "write failed: errno \(errno)" }
                return false
            }
            offset += n
        }
        return true
    }

    /// One H4 command from the host's bytes (ACL data is skipped); nil until complete.
    private static func nextCommand(_ input: inout [UInt8]) -> HCICommandPacket? {
        while let type = input.first {
            switch type {
            case 0x01 where input.count >= 4:
                let total = 4 + Int(input[3])
                guard input.count >= total else { return nil }
                let packet = HCIPacket(type: .command, bytes: Array(input[1..<total]))
                input.removeFirst(total)
                if let c = try? HCICommandPacket(packet) { return c }
            case 0x02 where input.count >= 5:
                let total = 5 + (Int(input[3]) | Int(input[4]) << 8)
                guard input.count >= total else { return nil }
                input.removeFirst(total)
            case 0x01, 0x02:
                return nil
            default:
                input.removeFirst()
            }
        }
        return nil
    }

    // MARK: Answers

    private enum Output {
        case packet([UInt8])
        case cut([UInt8])
    }

    private static func event(_ e: HCIEvent) -> [UInt8] { [0x04] + e.encoded }

    private static func complete(_ op: HCIOpcode, _ parameters: [UInt8]) -> [UInt8] {
        event(.commandComplete(CommandCompleteEvent(numHCICommandPackets: 1, commandOpcode: op, returnParameters: parameters)))
    }

    private static func complete<P: WireCodable>(_ op: HCIOpcode, _ parameters: P) -> [UInt8] {
        complete(op, parameters.encoded)
    }

    /// An LE Advertising Report (§7.7.65.2) of a device that advertises only its flags.
    static func advertisingReport(_ n: Int) -> [UInt8] {
        let address = BDAddress(bigEndian: [0xD0, 0, 0, 0, 0, UInt8(truncatingIfNeeded: n)]) ?? .zero
        return event(.le(.advertisingReport(LEAdvertisingReportEvent(reports: [
            LEAdvertisingReport(eventType: .advInd, addressType: .randomDevice, address: address,
                                data: [0x02, 0x01, 0x06], rssi: -40),
        ]))))
    }

    /// 8 LE buffers of 251 bytes, legacy commands only; its own address.
    private static let profile: ControllerProfile = {
        var p = ControllerProfile()
        p.publicAddress = BDAddress(string: "00:1B:DC:0F:AA:02") ?? .zero
        return p
    }()

    /// Touched on the serving thread only.
    private var hardwareErrorSent = false

    private func respond(to c: HCICommandPacket) -> [Output] {
        let op = c.opcode
        if case let .neverAnswer(silent) = script, silent == op { return [] }
        if case .hardwareErrorAfterScan(recover: false) = script, hardwareErrorSent { return [] }
        let answer: [UInt8]
        if let info = Self.profile.answer(op) {
            answer = Self.event(info)
        } else {
            answer = Self.complete(op, StatusReturnParameters())
        }
        var out: [Output] = [.packet(answer)]
        if case let .cutMidPacket(count, partial) = script, op == .leSetScanEnable,
           (try? c.decode(LESetScanEnable.self))?.scanEnable == true {
            for i in 0..<count { out.append(.packet(Self.advertisingReport(i))) }
            out.append(.cut(Array(Self.advertisingReport(count).prefix(partial))))
        }
        if case .hardwareErrorAfterScan = script, op == .leSetScanEnable,
           (try? c.decode(LESetScanEnable.self))?.scanEnable == true {
            if hardwareErrorSent {
                out += [.packet(Self.advertisingReport(10)), .packet(Self.advertisingReport(11))]
            } else {
                hardwareErrorSent = true
                out += [.packet(Self.advertisingReport(0)), .packet(Self.advertisingReport(1)),
                        .packet(Self.event(.hardwareError(HardwareErrorEvent(hardwareCode: 0x2A))))]
            }
        }
        return out
    }
}
