import Glibc
import Capture
import HostCore
import Wire

/// The kernel backend's I/O: the management socket (power, discovery) and one kernel L2CAP
/// socket per link, and the `KernelHost` behind them. The host's actions are carried out here
/// (`transmit`); what a socket says back — connected, failed, closed, a PDU — goes straight to
/// the host, since the host is never inside a call when `transmit` runs.
///
/// The tap (`--trace`, `--capture`) sees the adapter's real HCI traffic, read from the kernel's
/// monitor channel (what btmon reads: the kernel's commands, events and ACL data for this
/// adapter, also those of other programs on it). The monitor needs CAP_NET_RAW; without it the
/// tap sees each link's ATT PDUs wrapped as HCI ACL data on the link's connection handle
/// instead, and a notice says so.
public final class KernelSocketsIO: AdapterIO {
    public let kernelHost: KernelHost
    public var host: any Host { kernelHost }
    public let tap: PacketTap
    public let index: UInt16
    private let management: ManagementSocket
    /// The adapter's HCI traffic for the tap; nil when nothing listens or it could not be had.
    private let monitor: HCIMonitorSocket?
    private var sockets: [LinkID: L2CAPATTSocket] = [:]
    private var handles: [LinkID: UInt16] = [:]
    private let buffer: UnsafeMutableRawBufferPointer
    private var packetBuffer: [UInt8] = []
    public private(set) var failure: TransportError?
    private static let managementToken = -1
    private static let monitorToken = -2

    /// Opens the management socket (and, when the tap has sinks, the monitor channel); the host
    /// is made here. `notice` is told when the monitor channel cannot be had.
    public init(configuration: KernelHostConfiguration, tap: PacketTap,
                notice: (String) -> Void = { _ in }) throws(HCISocketError) {
        self.index = configuration.index
        self.tap = tap
        management = try ManagementSocket()
        if tap.isEmpty {
            monitor = nil
        } else {
            do throws(HCISocketError) {
                monitor = try HCIMonitorSocket()
            } catch {
                monitor = nil
                notice("the capture and --trace show rtstack's ATT PDUs only (as ACL data on each link's handle): "
                    + "the kernel's HCI traffic needs its monitor channel, and \(error)")
            }
        }
        kernelHost = KernelHost(configuration: configuration)
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536 + 8, alignment: 16)
    }

    deinit { buffer.deallocate() }

    public var name: String { "hci\(index)" }

    public func collectDescriptors(into list: inout [WatchedDescriptor]) {
        list.append(WatchedDescriptor(fd: management.fd, events: Int16(POLLIN), token: Self.managementToken))
        if let m = monitor { list.append(WatchedDescriptor(fd: m.fd, events: Int16(POLLIN), token: Self.monitorToken)) }
        for (id, s) in sockets where s.fd >= 0 {
            list.append(WatchedDescriptor(fd: s.fd, events: s.pollEvents, token: Int(id.rawValue)))
        }
    }

    public func descriptorReady(_ token: Int, events: Int16, at now: UInt64, settle: () -> Void) {
        if token == Self.managementToken {
            managementReady(at: now, settle: settle)
        } else if token == Self.monitorToken {
            monitorReady()
        } else if let raw = UInt32(exactly: token) {
            linkReady(LinkID(rawValue: raw), events: Int32(events), at: now, settle: settle)
        }
    }

    private func managementReady(at now: UInt64, settle: () -> Void) {
        for _ in 0..<32 {
            let n = management.read(into: buffer)
            if n == 0 { return }
            if n < 0 {
                failure = .systemCall(operation: "read from hci\(index)'s management socket", errno: Int32(-n))
                return
            }
            packetBuffer.removeAll(keepingCapacity: true)
            packetBuffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            kernelHost.receiveManagement(packetBuffer[...], at: now)
            settle()
        }
    }

    /// This adapter's HCI packets from the monitor channel, to the tap with the kernel's stamps.
    private func monitorReady() {
        guard let monitor else { return }
        for _ in 0..<64 {
            let received: HCIMonitorSocket.Received?
            do throws(HCISocketError) {
                received = try monitor.receive()
            } catch {
                return
            }
            guard let r = received else { return }
            if case .frame(let frame) = r, frame.adapterIndex == index, let record = frame.record {
                tap.pass(record)
            }
        }
    }

    /// Whether the tap takes the links' ATT PDUs (when the monitor channel does not show them).
    private var tapsATT: Bool { monitor == nil && !tap.isEmpty }

    private func linkReady(_ id: LinkID, events: Int32, at now: UInt64, settle: () -> Void) {
        guard let socket = sockets[id] else { return }
        if socket.isConnecting {
            guard events & (POLLOUT | POLLERR | POLLHUP) != 0 else { return }
            let code = socket.finishConnect()
            if code == 0 {
                let info = socket.channelInfo()
                handles[id] = info.handle
                kernelHost.channelConnected(id, info: info, at: now)
            } else {
                drop(id)
                kernelHost.channelFailed(id, error: Self.connectFailure(socket.peer, index: index, errno: code), at: now)
            }
            settle()
            return
        }
        if socket.awaitingSecurity, events & (POLLOUT | POLLERR | POLLHUP) != 0 {
            // The kernel has finished what BT_SECURITY asked (the socket is connected again).
            kernelHost.securityRaised(id, level: socket.finishSecurity(), at: now)
            settle()
        }
        if events & POLLOUT != 0, let code = socket.flush() {
            closed(id, errno: code, at: now)
            settle()
            return
        }
        guard events & (POLLIN | POLLHUP | POLLERR) != 0 else { return }
        for _ in 0..<32 {
            guard let socket = sockets[id] else { return }
            switch socket.read(into: buffer) {
            case .nothing:
                return
            case .closed(let code):
                closed(id, errno: code, at: now)
                settle()
                return
            case .pdu(let n):
                packetBuffer.removeAll(keepingCapacity: true)
                packetBuffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if tapsATT { tapATT(packetBuffer[...], on: id, .controllerToHost, at: now) }
                kernelHost.receiveATT(packetBuffer[...], on: id, at: now)
                settle()
            }
        }
    }

    private func closed(_ id: LinkID, errno code: Int32, at now: UInt64) {
        drop(id)
        kernelHost.channelClosed(id, reason: Self.reason(forErrno: code), at: now)
    }

    private func drop(_ id: LinkID) {
        sockets.removeValue(forKey: id)?.close()
        handles[id] = nil
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

    /// The kernel's answer to a connect, as a host error. A full controller keeps its HCI status
    /// (bt_to_errno: Connection Limit Exceeded 0x09 → EMLINK, Memory Capacity Exceeded 0x07 →
    /// ENOMEM), so that the gateway learns the adapter's slots on this backend too.
    static func connectFailure(_ peer: DeviceAddress, index: UInt16, errno code: Int32) -> HostError {
        switch code {
        case EMLINK: return .connectionFailed(.connectionLimitExceeded)
        case ENOMEM: return .connectionFailed(.memoryCapacityExceeded)
        // The kernel's LE connect ran out of time: the peer never answered, as on the user
        // channel, and with the same remedy.
        case ETIMEDOUT: return .connectTimeout(peer)
        default: return .controller(connectFailureText(peer, index: index, errno: code))
        }
    }

    static func connectFailureText(_ peer: DeviceAddress, index: UInt16, errno code: Int32) -> String {
        "connecting to \(peer) through hci\(index) failed: \(describeErrno(code))"
    }

    // MARK: The host's actions

    public func transmit(at now: UInt64) -> Bool {
        var did = false
        while failure == nil, let action = kernelHost.pollAction() {
            did = true
            switch action {
            case let .sendManagement(command):
                if let code = management.send(command) {
                    failure = .systemCall(operation: "\(command.opcode.name) to hci\(index)'s management socket", errno: code)
                }
            case let .openChannel(id, peer, address, security):
                do throws(KernelSocketFailure) {
                    sockets[id] = try L2CAPATTSocket(peer: peer, local: address, security: security)
                } catch {
                    kernelHost.channelFailed(id, error: .controller("\(error.step): " + Self.connectFailureText(peer, index: index, errno: error.errno)),
                                             at: now)
                }
            case let .closeChannel(id):
                drop(id)
            case let .raiseSecurity(id, level):
                guard let socket = sockets[id] else { continue }
                if let reached = socket.raiseSecurity(level) { kernelHost.securityRaised(id, level: reached, at: now) }
            case let .sendATT(id, pdu):
                guard let socket = sockets[id] else { continue }
                if tapsATT { tapATT(pdu[...], on: id, .hostToController, at: now) }
                if let code = socket.send(pdu) { closed(id, errno: code, at: now) }
            }
        }
        return did
    }

    public func takeWarnings() -> [HostWarning] { [] }

    public func describeEnd(_ error: TransportError) -> TransportError { error }

    /// Closes every socket and leaves the adapter as found (stops discovery, powers it off if
    /// the host powered it on), waiting briefly for the kernel's answers.
    public func close() {
        for (_, s) in sockets { s.close() }
        sockets.removeAll()
        for command in kernelHost.restoringCommands {
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

    /// A PDU as HCI ACL data on the link's handle (L2CAP basic header, CID 4), for the tap.
    private func tapATT(_ pdu: ArraySlice<UInt8>, on link: LinkID, _ direction: Direction, at now: UInt64) {
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
