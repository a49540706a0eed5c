import Glibc
import HostCore
import Wire

/// Runs a `KernelHost` on a `MultiDescriptorLoop`: the management socket and the links' L2CAP
/// sockets in, the host's commands and PDUs out, its events to the application after each host
/// call (the host is never re-entered from its own sink). `--capture` / `--trace` see every ATT
/// PDU wrapped as HCI ACL data on the link's connection handle, so captures of both backends
/// decode alike; the kernel's own HCI traffic is not visible here (btmon shows it).
public final class KernelDriver: MultiDescriptorDriver, KernelHostSink {
    public let host: KernelHost
    public let index: UInt16
    private let management: ManagementSocket
    private let tap: PacketTap
    private let application: KernelApplication
    private var sockets: [LinkID: L2CAPATTSocket] = [:]
    private var handles: [LinkID: UInt16] = [:]
    private var pending: [HostEvent] = []
    private var draining = false
    private var now: UInt64
    private var finished = false
    private let buffer: UnsafeMutableRawBufferPointer
    private static let managementToken = -1
    private var packetBuffer: [UInt8] = []
    /// RTSTACK_MGMT_TRACE=1: every management command and event on stderr (field debugging;
    /// btmon shows the kernel's HCI side).
    private let traceManagement = getenv("RTSTACK_MGMT_TRACE").map { String(cString: $0) == "1" } ?? false

    /// Opens the management socket; the host starts bringing the adapter up at once.
    public init(index: UInt16, security: KernelSecurityLevel?, tap: PacketTap,
                application: KernelApplication, at now: UInt64) throws(HCISocketError) {
        self.index = index
        self.tap = tap
        self.application = application
        self.now = now
        management = try ManagementSocket()
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536 + 8, alignment: 16)
        let forward = KernelSinkForwarder()
        host = KernelHost(configuration: KernelHostConfiguration(index: index, security: security), sink: forward)
        forward.target = self
        pending.reserveCapacity(64)
        application.attach(self, at: now)
        host.start(at: now)
        drain()
    }

    deinit { buffer.deallocate() }

    public var currentTime: UInt64 { now }
    public var isFinished: Bool { finished }

    /// Ends the loop after this turn.
    public func stop() {
        finished = true
    }

    /// Closes every socket and leaves the adapter as found (stops discovery, powers it off if
    /// the host powered it on), waiting briefly for the kernel's answers.
    public func close() {
        for (_, s) in sockets { s.close() }
        sockets.removeAll()
        for command in host.restoringCommands {
            guard management.send(command) == nil else { break }
            let deadline = MonotonicClock.now() &+ 500_000_000
            answerLoop: while MonotonicClock.now() < deadline {
                var pfd = pollfd(fd: management.fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, PollTimeout.milliseconds(until: deadline, now: MonotonicClock.now())) > 0 else { break }
                let n = management.read(into: buffer)
                guard n > 0 else { break }
                if let e = try? ManagementEvent(bytes: Array(buffer[0..<n])[...]), e.index == index {
                    switch e.payload {
                    case .commandComplete(command.opcode, _, _), .commandStatus(command.opcode, _): break answerLoop
                    default: continue
                    }
                }
            }
        }
        management.close()
    }

    private func drain() {
        guard !draining else { return }
        draining = true
        var i = 0
        while i < pending.count {
            application.hostEvent(pending[i], at: now)
            i += 1
        }
        pending.removeAll(keepingCapacity: true)
        draining = false
    }

    // MARK: MultiDescriptorDriver

    public func collectDescriptors(into list: inout [WatchedDescriptor]) {
        list.append(WatchedDescriptor(fd: management.fd, events: Int16(POLLIN), token: Self.managementToken))
        for (id, s) in sockets where s.fd >= 0 {
            list.append(WatchedDescriptor(fd: s.fd, events: s.pollEvents, token: Int(id.rawValue)))
        }
    }

    public func descriptorReady(_ token: Int, events: Int16, at now: UInt64) {
        self.now = now
        if token == Self.managementToken {
            managementReady()
        } else if let raw = UInt32(exactly: token) {
            linkReady(LinkID(rawValue: raw), events: Int32(events))
        }
        drain()
    }

    private func managementReady() {
        for _ in 0..<32 {
            let n = management.read(into: buffer)
            if n == 0 { return }
            if n < 0 {
                let code = Int32(-n)
                fail("hci\(index): the kernel's management interface failed: \(describeErrno(code))")
                return
            }
            packetBuffer.removeAll(keepingCapacity: true)
            packetBuffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            if traceManagement { HCISocketTransport.standardErrorNotice("mgmt > " + Hex.spaced(packetBuffer.prefix(40))) }
            host.receiveManagement(packetBuffer[...], at: now)
            drain()
        }
    }

    private func linkReady(_ id: LinkID, events: Int32) {
        guard let socket = sockets[id] else { return }
        if socket.isConnecting {
            guard events & (POLLOUT | POLLERR | POLLHUP) != 0 else { return }
            let code = socket.finishConnect()
            if code == 0 {
                let info = socket.channelInfo()
                handles[id] = info.handle
                host.channelConnected(id, info: info, at: now)
            } else {
                socket.close()
                sockets[id] = nil
                host.channelFailed(id, error: .controller(Self.connectFailureText(socket.peer, index: index, errno: code)), at: now)
            }
            return
        }
        if events & POLLOUT != 0, let code = socket.flush() {
            return closed(id, socket, errno: code)
        }
        guard events & (POLLIN | POLLHUP | POLLERR) != 0 else { return }
        for _ in 0..<32 {
            switch socket.read(into: buffer) {
            case .nothing:
                return
            case .closed(let code):
                return closed(id, socket, errno: code)
            case .pdu(let n):
                packetBuffer.removeAll(keepingCapacity: true)
                packetBuffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if !tap.isEmpty { tapATT(packetBuffer[...], on: id, .controllerToHost) }
                host.receiveATT(packetBuffer[...], on: id, at: now)
                drain()
                if sockets[id] == nil { return }
            }
        }
    }

    private func closed(_ id: LinkID, _ socket: L2CAPATTSocket, errno code: Int32) {
        socket.close()
        sockets[id] = nil
        host.channelClosed(id, reason: Self.reason(forErrno: code), at: now)
    }

    /// The kernel turns the HCI disconnection reason into an errno (bt_to_errno); back again,
    /// for the reasons that matter to a user.
    static func reason(forErrno code: Int32) -> HCIStatus {
        switch code {
        case ETIMEDOUT: return .connectionTimeout
        case ECONNABORTED: return .connectionTerminatedByLocalHost
        case EHOSTDOWN: return .remoteDeviceTerminatedConnectionPowerOff
        case EACCES: return .authenticationFailure
        default: return .remoteUserTerminatedConnection
        }
    }

    static func connectFailureText(_ peer: DeviceAddress, index: UInt16, errno code: Int32) -> String {
        var text = "connecting to \(peer) through hci\(index) failed: \(describeErrno(code))"
        switch code {
        case ETIMEDOUT, EHOSTDOWN, EHOSTUNREACH:
            text += "; is the device on, advertising, connectable and in range?"
        case ECONNREFUSED:
            text += "; the peer refused the connection"
        case EACCES, EPERM:
            text += "; pairing or encryption failed (BT_SECURITY), or missing permission"
        case EBUSY:
            text += "; the kernel is busy with another connection to it (bluetoothd?)"
        default:
            break
        }
        return text
    }

    public var nextDeadline: UInt64? {
        if !deferred.isEmpty { return 0 }
        switch (host.nextDeadline, application.nextDeadline) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    public func deadlineReached(at now: UInt64) {
        self.now = now
        runDeferred()
        if let d = host.nextDeadline, d <= now { host.advanceTime(to: now) }
        drain()
        if let d = application.nextDeadline, d <= now { application.deadlineReached(at: now) }
        drain()
    }

    public func shutdownRequested(at now: UInt64) -> Bool {
        self.now = now
        let stopNow = application.shutdownRequested(at: now)
        drain()
        return stopNow
    }

    private func fail(_ message: String) {
        guard !finished else { return }
        application.backendFailed(message)
        finished = true
    }

    // MARK: KernelHostSink

    public func sendManagement(_ command: ManagementCommand) {
        if traceManagement { HCISocketTransport.standardErrorNotice("mgmt < " + Hex.spaced(command.encoded)) }
        if let code = management.send(command) {
            fail("hci\(index): \(command.opcode.name) could not be sent to the management interface: \(describeErrno(code))")
        }
    }

    public func openATTChannel(_ link: LinkID, to peer: DeviceAddress, from address: BDAddress, security: KernelSecurityLevel?) {
        do throws(KernelSocketFailure) {
            sockets[link] = try L2CAPATTSocket(peer: peer, local: address, security: security)
        } catch {
            let text = "\(error.step): " + Self.connectFailureText(peer, index: index, errno: error.errno)
            // Answered after the current host call returns: the host is not re-entered.
            let id = link
            deferred.append { $0.host.channelFailed(id, error: .controller(text), at: $0.now) }
        }
    }

    public func closeATTChannel(_ link: LinkID) {
        sockets[link]?.close()
        sockets[link] = nil
        handles[link] = nil
    }

    public func sendATT(_ pdu: [UInt8], on link: LinkID) {
        guard let socket = sockets[link] else { return }
        if !tap.isEmpty { tapATT(pdu[...], on: link, .hostToController) }
        if let code = socket.send(pdu) {
            let id = link
            deferred.append { driver in
                guard let s = driver.sockets[id] else { return }
                driver.closed(id, s, errno: code)
            }
        }
    }

    public func deliver(_ event: HostEvent) {
        pending.append(event)
    }

    /// Socket answers that must wait until the host call in progress has returned; they run
    /// at the start of the next loop turn (`nextDeadline` is then "now").
    private var deferred: [(KernelDriver) -> Void] = []

    private func runDeferred() {
        while !deferred.isEmpty {
            let job = deferred.removeFirst()
            job(self)
            drain()
        }
    }

    /// A PDU as HCI ACL data on the link's handle (L2CAP basic header, CID 4), for the tap.
    private func tapATT(_ pdu: ArraySlice<UInt8>, on link: LinkID, _ direction: Direction) {
        let handle = (handles[link] ?? 0) & 0x0FFF
        let l2capLength = pdu.count
        let aclLength = l2capLength + 4
        var bytes: [UInt8] = []
        bytes.reserveCapacity(aclLength + 4)
        let first = handle | 0x2000
        bytes.append(contentsOf: [UInt8(first & 0xFF), UInt8(first >> 8),
                                  UInt8(truncatingIfNeeded: aclLength), UInt8(truncatingIfNeeded: aclLength >> 8),
                                  UInt8(truncatingIfNeeded: l2capLength), UInt8(truncatingIfNeeded: l2capLength >> 8), 0x04, 0x00])
        bytes.append(contentsOf: pdu)
        tap.pass(HCIPacket(type: .acl, bytes: bytes[...]), direction, at: now)
    }
}

/// Breaks the construction cycle between `KernelHost` and the driver that owns it.
private final class KernelSinkForwarder: KernelHostSink {
    weak var target: KernelDriver?
    func sendManagement(_ command: ManagementCommand) { target?.sendManagement(command) }
    func openATTChannel(_ link: LinkID, to peer: DeviceAddress, from address: BDAddress, security: KernelSecurityLevel?) {
        target?.openATTChannel(link, to: peer, from: address, security: security)
    }
    func closeATTChannel(_ link: LinkID) { target?.closeATTChannel(link) }
    func sendATT(_ pdu: [UInt8], on link: LinkID) { target?.sendATT(pdu, on: link) }
    func deliver(_ event: HostEvent) { target?.deliver(event) }
}
