import Glibc
import Wire

/// The kernel's Bluetooth management channel (HCI_CHANNEL_CONTROL, bound to no adapter):
/// commands in, events out, one packet per read and per write. Opening it needs no privileges;
/// commands that change an adapter answer Permission Denied without CAP_NET_ADMIN.
final class ManagementSocket {
    private(set) var fd: Int32

    init() throws(HCISocketError) {
        fd = try LinuxBluetoothABI.boundChannel(device: LinuxBluetoothABI.deviceNone, channel: LinuxBluetoothABI.channelControl,
                                                index: nil, operation: .management)
    }

    deinit { close() }

    func close() {
        if fd >= 0 { FileDescriptorFlags.closeIgnoringErrors(fd) }
        fd = -1
    }

    /// Returns the errno when the kernel did not take the command.
    func send(_ command: ManagementCommand) -> Int32? {
        let bytes = command.encoded
        while true {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // A command the kernel refuses at once (Permission Denied, Invalid Index) is answered
            // by a Command Status event and send(2) returns 0: it was taken all the same.
            if n >= 0 { return nil }
            let code = currentErrno
            if code == EINTR { continue }
            return code
        }
    }

    /// One event, 0 when none waits, or -errno.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return n }
            let code = currentErrno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return 0 }
            return -Int(code)
        }
    }
}
