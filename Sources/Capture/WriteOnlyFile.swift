import Glibc

/// A file opened for writing whose every `writeAll` is one write(2) (looping only on a short
/// write or EINTR), so no record sits in a user-space buffer when the process dies.
final class WriteOnlyFile {
    let path: String
    private var descriptor: Int32
    private var written = 0
    /// False for a descriptor handed in (standard output): it is neither synced nor closed.
    private let ownsDescriptor: Bool

    init(path: String) throws(CaptureError) {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 {
            let code = errno
            throw CaptureError.cannotOpen(path: path, errno: code, reason: systemErrorText(code))
        }
        descriptor = fd
        self.path = path
        ownsDescriptor = true
    }

    /// Writes to an open descriptor (standard output for `wireshark -k -i -`); `path` names it
    /// in errors.
    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
        ownsDescriptor = false
    }

    func writeAll(_ bytes: [UInt8]) throws(CaptureError) {
        guard descriptor >= 0 else { throw CaptureError.writerClosed(path: path) }
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(descriptor, base + done, raw.count - done)
            }
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                throw CaptureError.ioFailed(operation: "write to \(path)", offset: written + done, errno: code,
                                            reason: systemErrorText(code))
            }
            done += result
        }
        written += done
    }

    func sync() throws(CaptureError) {
        guard descriptor >= 0 else { throw CaptureError.writerClosed(path: path) }
        guard ownsDescriptor else { return }
        if fdatasync(descriptor) != 0 {
            let code = errno
            throw CaptureError.ioFailed(operation: "fdatasync of \(path)", offset: written, errno: code,
                                        reason: systemErrorText(code))
        }
    }

    func close() throws(CaptureError) {
        guard descriptor >= 0 else { return }
        let fd = descriptor
        descriptor = -1
        guard ownsDescriptor else { return }
        if Glibc.close(fd) != 0 {
            let code = errno
            throw CaptureError.ioFailed(operation: "close of \(path)", offset: written, errno: code,
                                        reason: systemErrorText(code))
        }
    }

    deinit {
        if descriptor >= 0, ownsDescriptor { Glibc.close(descriptor) }
    }
}
