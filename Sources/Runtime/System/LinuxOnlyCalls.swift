import Glibc

/// Linux calls the Swift `Glibc` module does not import.
///
/// `sys/eventfd.h` is not in the module map, and `pthread_setname_np` needs `_GNU_SOURCE`.
/// Rather than add a C target for two functions we look them up in the already-loaded C
/// library with `dlsym` and call them through a `@convention(c)` type, which gives the C
/// calling convention exactly. If the symbol is missing (a libc without it), callers fall back
/// (a pipe instead of an eventfd; an unnamed thread).
enum LinuxOnlyCalls {
    typealias EventFDFunction = @convention(c) (UInt32, Int32) -> Int32
    typealias SetThreadNameFunction = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32

    /// `eventfd(2)`; nil when the C library does not export it.
    static let eventfd: EventFDFunction? = lookup("eventfd", as: EventFDFunction.self)

    /// `pthread_setname_np(3)`; nil when the C library does not export it.
    static let setThreadName: SetThreadNameFunction? = lookup("pthread_setname_np", as: SetThreadNameFunction.self)

    /// `EFD_NONBLOCK` and `EFD_CLOEXEC` are defined by the kernel as the `O_` flags of the same name.
    static let eventFDFlags: Int32 = O_NONBLOCK | O_CLOEXEC

    private static func lookup<F>(_ name: String, as type: F.Type) -> F? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
}
