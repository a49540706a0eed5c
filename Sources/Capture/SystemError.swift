import Glibc

/// The text of an errno value, for error messages that a user can search for.
func systemErrorText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return String(cString: text)
}

/// Owns a read-only file descriptor and closes it when the last reader copy goes away.
/// Immutable, so reader copies may share it across threads: every read is a `pread` with the
/// reader's own offset.
final class ReadOnlyFile: Sendable {
    let descriptor: Int32
    let path: String

    init(path: String) throws(CaptureError) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            throw CaptureError.cannotOpen(path: path, errno: code, reason: systemErrorText(code))
        }
        descriptor = fd
        self.path = path
    }

    /// Current size, used only to word truncation errors when a skip jumps past the end.
    func size() -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return Int(exactly: info.st_size)
    }

    deinit { Glibc.close(descriptor) }
}
