#if canImport(Glibc)
import Glibc
#endif
import Wire

/// The folder where rtstack keeps what must survive a restart: its own random static address
/// (so peripherals that remember centrals see the same one) and the GATT cache per peer.
/// `$XDG_STATE_HOME/rtstack`, else `~/.local/state/rtstack`, or `--state-dir`.
public struct StateDirectory: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The default location from the environment.
    public static func standard() -> StateDirectory {
        if let x = getenv("XDG_STATE_HOME"), x.pointee != 0 {
            return StateDirectory(path: String(cString: x) + "/rtstack")
        }
        if let h = getenv("HOME"), h.pointee != 0 {
            return StateDirectory(path: String(cString: h) + "/.local/state/rtstack")
        }
        return StateDirectory(path: "/var/lib/rtstack")
    }

    /// Creates the folder (and parents) if needed.
    public func create() throws(StateError) {
        let chars = Array(path)
        for i in chars.indices where (chars[i] == "/" && i > 0) || i == chars.count - 1 {
            let prefix = String(chars[0...(chars[i] == "/" ? i - 1 : i)])
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw StateError("cannot create state directory \(path): \(String(cString: strerror(errno))) (choose another with --state-dir)")
            }
        }
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Reads a small text file; nil when absent.
    public func read(_ name: String) -> String? {
        guard let f = fopen(file(name), "r") else { return nil }
        defer { fclose(f) }
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            out.append(contentsOf: buf[0..<n])
            if out.count > 4 << 20 { break }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes atomically: a temporary file in the same folder, fsync, then rename, so a crash
    /// leaves either the old or the new content, never half of one. `mode` is set on the
    /// temporary file before any byte is written (0600 for secrets: no moment where another
    /// user could open it), and the folder is synced after the rename so the new name survives
    /// a power cut.
    public func write(_ name: String, _ text: String, mode: mode_t = 0o644) throws(StateError) {
        try create()
        let target = file(name)
        let temp = target + ".tmp\(getpid())"
        unlink(temp)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw StateError("cannot write \(temp): \(String(cString: strerror(errno)))") }
        fchmod(fd, mode)
        let bytes = Array(text.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + off, bytes.count - off) }
            if n < 0 {
                if errno == EINTR { continue }
                let e = String(cString: strerror(errno))
                close(fd)
                unlink(temp)
                throw StateError("cannot write \(temp): \(e)")
            }
            off += n
        }
        fsync(fd)
        close(fd)
        if rename(temp, target) != 0 {
            let e = String(cString: strerror(errno))
            unlink(temp)
            throw StateError("cannot replace \(target): \(e)")
        }
        let dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }

    /// Names of the files in the folder that start with `prefix` and end with `suffix`.
    public func names(prefix: String, suffix: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasPrefix(prefix) && name.hasSuffix(suffix) && !name.containsText(".tmp") { out.append(name) }
        }
        return out.sorted()
    }

    public func remove(_ name: String) {
        unlink(file(name))
    }

    /// The host's own random static address: read from `file` (`address`), or made once and
    /// kept. A process with several adapters keeps one per adapter (two controllers on the same
    /// air must not share an address).
    public func ownRandomStaticAddress(file: String = "address") -> BDAddress {
        if let text = read(file)?.split(separator: "\n").first,
           let a = BDAddress(string: String(text)), a.randomKind == .staticAddress {
            return a
        }
        let a = StateDirectory.newRandomStaticAddress()
        try? write(file, a.string + "\n")
        return a
    }

    /// A random static address (Core Spec Vol 6, Part B, §1.3.2.1): the two top bits 1, the
    /// random part neither all zeros nor all ones.
    public static func newRandomStaticAddress() -> BDAddress {
        var b = [UInt8](repeating: 0, count: 6)
        while true {
            StateDirectory.randomBytes(&b)
            b[5] |= 0xC0
            let rest = b[0..<5] + [b[5] & 0x3F]
            if !rest.allSatisfy({ $0 == 0 }) && !(rest.dropLast().allSatisfy({ $0 == 0xFF }) && b[5] == 0xFF) { break }
        }
        return BDAddress(littleEndian: b[...]) ?? .zero
    }
}

extension StateDirectory {
    /// Fills `bytes` from the kernel's random source (falls back to the clock and pid only if
    /// /dev/urandom cannot be read, which on Linux does not happen in practice).
    static func randomBytes(_ bytes: inout [UInt8]) {
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        var filled = 0
        if fd >= 0 {
            filled = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        if filled < bytes.count {
            var ts = timespec()
            clock_gettime(CLOCK_REALTIME, &ts)
            var x = UInt64(bitPattern: Int64(ts.tv_nsec)) ^ UInt64(getpid()) << 32
            for i in bytes.indices {
                x = x &* 6364136223846793005 &+ 1442695040888963407
                bytes[i] = UInt8(truncatingIfNeeded: x >> 33)
            }
        }
    }
}

public struct StateError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
