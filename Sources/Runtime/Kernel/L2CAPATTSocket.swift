import Glibc
import HostCore
import Wire

/// One kernel L2CAP socket on the ATT fixed channel (SOCK_SEQPACKET, BTPROTO_L2CAP, CID 4):
/// the ATT bearer of one link with `--backend kernel`. The kernel creates the LE connection
/// when it connects and drops it once no socket uses it. Each read and each write is one
/// whole ATT PDU.
final class L2CAPATTSocket {
    let peer: DeviceAddress
    private(set) var fd: Int32
    /// The non-blocking connect has not finished yet (POLLOUT or POLLERR tells).
    private(set) var isConnecting = true
    /// PDUs the socket did not take yet (EAGAIN), in order.
    private var pending: [[UInt8]] = []
    /// BT_SECURITY was raised on the connected socket: the kernel holds it (not writable)
    /// until its pairing or encryption ended.
    private(set) var awaitingSecurity = false

    /// Starts connecting from the adapter's `local` address to `peer`; throws the errno of
    /// the step that failed at once, with the step's name.
    init(peer: DeviceAddress, local: BDAddress, security: KernelSecurityLevel?) throws(KernelSocketFailure) {
        self.peer = peer
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(AF_BLUETOOTH, type, LinuxBluetoothABI.btprotoL2CAP)
        guard fd >= 0 else { throw KernelSocketFailure(step: "socket", errno: currentErrno) }
        self.fd = fd
        let bindAddress = LinuxBluetoothABI.sockaddrL2(address: local, type: LinuxBluetoothABI.addressLEPublic,
                                                     channel: LinuxBluetoothABI.attChannel)
        guard LinuxBluetoothABI.bind(fd, address: bindAddress) == 0 else {
            let code = currentErrno
            close()
            throw KernelSocketFailure(step: "bind", errno: code)
        }
        if let security {
            var value: (UInt8, UInt8) = (security.rawValue, 0)
            let rc = setsockopt(fd, LinuxBluetoothABI.solBluetooth, LinuxBluetoothABI.btSecurity, &value, 2)
            guard rc == 0 else {
                let code = currentErrno
                close()
                throw KernelSocketFailure(step: "setsockopt(BT_SECURITY)", errno: code)
            }
        }
        let target = LinuxBluetoothABI.sockaddrL2(address: peer.address, type: LinuxBluetoothABI.addressType(peer.type),
                                                channel: LinuxBluetoothABI.attChannel)
        let rc = target.withUnsafeBytes { raw in
            Glibc.connect(fd, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        // connect() succeeds at once when the kernel still has an LE link to the peer (it keeps
        // one for its disconnect timeout after the last socket closed, e.g. on a quick reconnect).
        // `isConnecting` stays true all the same: the socket is writable, so the next poll reports
        // POLLOUT and `finishConnect` confirms it like any other; the driver learns of the link
        // only from there.
        if rc != 0 {
            let code = currentErrno
            guard code == EINPROGRESS || code == EAGAIN else {
                close()
                throw KernelSocketFailure(step: "connect", errno: code)
            }
        }
    }

    deinit { close() }

    func close() {
        if fd >= 0 { FileDescriptorFlags.closeIgnoringErrors(fd) }
        fd = -1
        pending.removeAll()
    }

    var pollEvents: Int16 {
        if isConnecting || awaitingSecurity || !pending.isEmpty { return Int16(POLLIN) | Int16(POLLOUT) }
        return Int16(POLLIN)
    }

    /// BT_SECURITY of the socket; nil when the kernel does not say.
    var securityLevel: KernelSecurityLevel? {
        var value: (UInt8, UInt8) = (0, 0)
        var length = socklen_t(2)
        guard getsockopt(fd, LinuxBluetoothABI.solBluetooth, LinuxBluetoothABI.btSecurity, &value, &length) == 0 else { return nil }
        return KernelSecurityLevel(rawValue: value.0)
    }

    /// Asks the kernel for `level` on the connected link: nil while it pairs or encrypts
    /// (`finishSecurity` at the next POLLOUT), else the level the socket has now (the kernel
    /// refuses a level the link already has with EINVAL).
    func raiseSecurity(_ level: KernelSecurityLevel) -> KernelSecurityLevel? {
        var value: (UInt8, UInt8) = (level.rawValue, 0)
        guard setsockopt(fd, LinuxBluetoothABI.solBluetooth, LinuxBluetoothABI.btSecurity, &value, 2) == 0 else {
            return securityLevel ?? .low
        }
        awaitingSecurity = true
        return nil
    }

    /// The socket is writable (or failed) after `raiseSecurity`: the level it has now.
    func finishSecurity() -> KernelSecurityLevel? {
        awaitingSecurity = false
        return securityLevel
    }

    /// After POLLOUT/POLLERR while connecting: 0 when connected, else the connect's errno.
    func finishConnect() -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return currentErrno }
        if error == 0 { isConnecting = false }
        return error
    }

    /// BT_RCVMTU, BT_SNDMTU and the connection handle; 0 / nil for what the kernel does not say.
    func channelInfo() -> KernelChannelInfo {
        func mtu(_ option: Int32) -> UInt16 {
            var value: UInt16 = 0
            var length = socklen_t(2)
            return getsockopt(fd, LinuxBluetoothABI.solBluetooth, option, &value, &length) == 0 ? value : 0
        }
        var conn: (UInt16, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: conn))
        let handle = getsockopt(fd, LinuxBluetoothABI.solL2CAP, LinuxBluetoothABI.l2capConnectionInfo, &conn, &length) == 0
            ? conn.0 : nil
        return KernelChannelInfo(receiveMTU: mtu(LinuxBluetoothABI.btReceiveMTU), sendMTU: mtu(LinuxBluetoothABI.btSendMTU),
                                 handle: handle, security: securityLevel)
    }

    enum ReadResult {
        case pdu(Int)
        case nothing
        case closed(errno: Int32)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 { return .pdu(n) }
            if n == 0 { return .closed(errno: 0) }
            let code = currentErrno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .nothing }
            return .closed(errno: code)
        }
    }

    /// Sends one PDU, or queues it behind those waiting; returns the errno of a hard failure.
    func send(_ pdu: [UInt8]) -> Int32? {
        if !pending.isEmpty {
            pending.append(pdu)
            return flush()
        }
        switch sendNow(pdu) {
        case .some(let code) where code == EAGAIN || code == EWOULDBLOCK:
            pending.append(pdu)
            return nil
        case let other:
            return other
        }
    }

    /// Sends what waits while the socket takes it.
    func flush() -> Int32? {
        while let first = pending.first {
            if let code = sendNow(first) {
                if code == EAGAIN || code == EWOULDBLOCK { return nil }
                return code
            }
            pending.removeFirst()
        }
        return nil
    }

    private func sendNow(_ pdu: [UInt8]) -> Int32? {
        while true {
            let n = pdu.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n >= 0 { return nil }
            let code = currentErrno
            if code == EINTR { continue }
            return code
        }
    }
}

/// A socket call that failed: which one, and its errno.
struct KernelSocketFailure: Error {
    var step: String
    var errno: Int32
}
