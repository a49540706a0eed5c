import Glibc

/// A shared library opened with dlopen(3) and never closed: its functions are used until the
/// process exits. Opening it at run time rather than linking it keeps the static rtstack binary
/// one file for users who never need the library (Docs/embedded.md).
public struct DynamicLibrary: @unchecked Sendable {
    // @unchecked: the handle is only read after dlopen returned it, and dlsym is thread-safe.
    private let handle: UnsafeMutableRawPointer
    public let name: String

    public struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// dlerror's text, which names the file and the reason.
        public var detail: String
        public var description: String { detail }
    }

    /// Opens `name` as the dynamic linker finds it (`libmosquitto.so.1`: the run-time name,
    /// which the Debian runtime package provides without the -dev package).
    public static func open(_ name: String) throws(LoadError) -> DynamicLibrary {
        _ = dlerror()
        guard let h = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw LoadError(detail: lastError() ?? "dlopen(\(name)) failed")
        }
        return DynamicLibrary(handle: h, name: name)
    }

    private init(handle: UnsafeMutableRawPointer, name: String) {
        self.handle = handle
        self.name = name
    }

    /// The address of `symbol` as a C function pointer of type `T` (a type the C header declares,
    /// so the call matches the library's prototype).
    public func function<T>(_ symbol: String, as type: T.Type) throws(LoadError) -> T {
        _ = dlerror()
        guard let p = dlsym(handle, symbol) else {
            throw LoadError(detail: lastError().map { $0 } ?? "\(symbol) not found in \(name)")
        }
        return unsafeBitCast(p, to: type)
    }

    private static func lastError() -> String? {
        dlerror().map { String(cString: $0) }
    }

    private func lastError() -> String? { Self.lastError() }
}
