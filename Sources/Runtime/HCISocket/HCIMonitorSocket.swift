import Glibc
import Capture
import Wire

/// The kernel's HCI monitor channel (HCI_CHANNEL_MONITOR, what btmon reads): a copy of every
/// frame of every adapter — commands, events, ACL, SCO and ISO data both ways — plus the
/// kernel's notes about adapters (added, removed, opened, closed) and about the programs that
/// open HCI and management sockets. On bind the kernel first replays the current state: a New
/// Index, Open Index and Index Info per adapter, a Control Open per open management socket.
///
/// Reading it needs CAP_NET_RAW; the error says so and gives the setcap line. It changes
/// nothing on any adapter.
public final class HCIMonitorSocket {
    public let fd: Int32
    private var buffer: [UInt8]
    private var control: [UInt8]

    /// The largest frame: the 6-octet header and a payload whose Length is 16 bits.
    static let bufferSize = MonitorFrame.headerLength + 0xFFFF

    /// - Throws: `HCISocketError` (operation `.monitor`): EAFNOSUPPORT without kernel
    ///   Bluetooth, EPERM without CAP_NET_RAW.
    public init() throws(HCISocketError) {
        let fd = try LinuxBluetoothABI.boundChannel(device: LinuxBluetoothABI.deviceNone, channel: LinuxBluetoothABI.channelMonitor,
                                                    index: nil, operation: .monitor)
        // Kernel timestamps (taken when the frame was queued), as btmon uses; without them the
        // time of reading stands in.
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_TIMESTAMP, &on, socklen_t(MemoryLayout<Int32>.size))
        self.fd = fd
        buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        control = [UInt8](repeating: 0, count: 64)
    }

    deinit { FileDescriptorFlags.closeIgnoringErrors(fd) }

    /// The next frame, nil when none is waiting. The frame's payload is its own copy.
    ///
    /// - Throws: `HCISocketError` for a read error other than EAGAIN/EINTR; a frame whose
    ///   header does not match its size is returned as `.malformed` rather than thrown.
    public func receive() throws(HCISocketError) -> Received? {
        var stamp: Int64?
        let n: Int = buffer.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { ctl in
                var iov = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return withUnsafeMutablePointer(to: &iov) { iovp in
                    var msg = msghdr()
                    msg.msg_iov = iovp
                    msg.msg_iovlen = 1
                    msg.msg_control = ctl.baseAddress
                    msg.msg_controllen = ctl.count
                    let got = recvmsg(fd, &msg, Int32(MSG_DONTWAIT))
                    if got > 0 { stamp = Self.timestamp(&msg) }
                    return got
                }
            }
        }
        if n < 0 {
            let code = currentErrno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return nil }
            throw HCISocketError(index: nil, operation: .monitor, errno: code)
        }
        let time = stamp ?? Self.wallClockMicros()
        let bytes = Array(buffer[0..<n])
        do throws(WireError) {
            return .frame(try MonitorFrame(socketBytes: bytes[...], timestampMicros: time))
        } catch {
            return .malformed(bytes, error.description)
        }
    }

    public enum Received {
        case frame(MonitorFrame)
        /// Octets whose header does not fit them: shown and counted, never fatal.
        case malformed([UInt8], String)
    }

    /// The SCM_TIMESTAMP control message (a `struct timeval`) in µs since the epoch.
    private static func timestamp(_ msg: inout msghdr) -> Int64? {
        guard msg.msg_controllen >= MemoryLayout<cmsghdr>.size, let base = msg.msg_control else { return nil }
        var offset = 0
        let total = Int(msg.msg_controllen)
        while offset + MemoryLayout<cmsghdr>.size <= total {
            let header = base.load(fromByteOffset: offset, as: cmsghdr.self)
            let length = Int(header.cmsg_len)
            guard length >= MemoryLayout<cmsghdr>.size else { return nil }
            if header.cmsg_level == SOL_SOCKET, header.cmsg_type == SO_TIMESTAMP,
               length >= MemoryLayout<cmsghdr>.size + MemoryLayout<timeval>.size {
                let tv = base.loadUnaligned(fromByteOffset: offset + MemoryLayout<cmsghdr>.size, as: timeval.self)
                return Int64(tv.tv_sec) * 1_000_000 + Int64(tv.tv_usec)
            }
            // CMSG_NXTHDR: lengths are padded to the size of a long.
            let align = MemoryLayout<Int>.size
            offset += (length + align - 1) / align * align
        }
        return nil
    }

    static func wallClockMicros() -> Int64 {
        var ts = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}

@available(*, unavailable, message: "a monitor socket belongs to the thread that reads it")
extension HCIMonitorSocket: Sendable {}
