import Glibc

/// Text for an `errno` value: the C library's message plus the symbolic name where we know it,
/// so a user can search for it ("Connection refused (ECONNREFUSED)").
public func describeErrno(_ code: Int32) -> String {
    let message = String(cString: strerror(code))
    if let name = errnoName(code) { return "\(message) (\(name))" }
    return "\(message) (errno \(code))"
}

/// Symbolic names of the errno values this layer can meet; others print as numbers.
func errnoName(_ code: Int32) -> String? {
    switch code {
    case EPERM: return "EPERM"
    case ENOENT: return "ENOENT"
    case EINTR: return "EINTR"
    case EIO: return "EIO"
    case ENXIO: return "ENXIO"
    case EBADF: return "EBADF"
    case EAGAIN: return "EAGAIN"
    case ENOMEM: return "ENOMEM"
    case EACCES: return "EACCES"
    case EBUSY: return "EBUSY"
    case ENODEV: return "ENODEV"
    case EINVAL: return "EINVAL"
    case EMFILE: return "EMFILE"
    case ENOTTY: return "ENOTTY"
    case EPIPE: return "EPIPE"
    case EAFNOSUPPORT: return "EAFNOSUPPORT"
    case EADDRNOTAVAIL: return "EADDRNOTAVAIL"
    case ENETUNREACH: return "ENETUNREACH"
    case ECONNRESET: return "ECONNRESET"
    case ETIMEDOUT: return "ETIMEDOUT"
    case ECONNREFUSED: return "ECONNREFUSED"
    case EHOSTUNREACH: return "EHOSTUNREACH"
    default: return nil
    }
}

/// Current `errno` of the calling thread.
@inline(__always)
var currentErrno: Int32 { errno }
