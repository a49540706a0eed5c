#if canImport(Glibc)
import Glibc
#endif
import Capture
import HostCore
import Runtime
import Wire

/// The options every command that talks to a controller takes, parsed once.
struct AdapterOptions {
    static let specs: [CommandSpec.Option] = [
        .init("adapter", value: "ADAPTER", "hciN, tcp:HOST:PORT, serial:/dev/ttyX[@BAUD][,noflow] or /dev/ttyX"),
        .init("backend", value: "user-channel|kernel", "with --adapter hciN: take the adapter for rtstack alone (user-channel, default) or share it with the kernel and bluetoothd (kernel)"),
        .init("address", value: "random|public", "own address: a random static one kept in the state directory (default) or the controller's public one"),
        .init("state-dir", value: "DIR", "where the own address and GATT caches live (default $XDG_STATE_HOME/rtstack)"),
        .init("trace", "print every packet decoded with hex dump on stderr"),
        .init("capture", value: "FILE", "write every packet to FILE.btsnoop or FILE.pcap as it runs (keys included, as on the wire)"),
        .init("capture-redact", "zero key material (LTKs, IRKs, CSRKs) in --capture files"),
        .init("log-level", value: "LEVEL", "error, warn (default), info or debug"),
    ] + SecurityOptions.specs

    var adapter: AdapterSpec
    var backend: AdapterBackend
    var securityOptions: SecurityOptions
    /// BT_SECURITY of every link on the kernel backend.
    var security: KernelSecurityLevel? { backend == .kernel ? securityOptions.kernelLevel : nil }
    var usePublicAddress: Bool
    var state: StateDirectory
    var trace: Bool
    var capturePath: String?
    var captureRedact: Bool
    var logLevel: LogLevel

    enum LogLevel: Int, Comparable {
        case error = 0, warn, info, debug
        static func < (l: LogLevel, r: LogLevel) -> Bool { l.rawValue < r.rawValue }
    }

    init(_ args: ParsedArguments) throws(UsageError) {
        guard let a = args.value("adapter") else {
            throw UsageError("--adapter is required (e.g. --adapter hci0, --adapter tcp:127.0.0.1:9000, --adapter /dev/ttyACM0)")
        }
        do {
            adapter = try AdapterSpec(parsing: a)
        } catch {
            throw UsageError(error.description)
        }
        switch args.value("backend") ?? "user-channel" {
        case "user-channel": backend = .userChannel
        case "kernel":
            guard case .hciSocket = adapter else {
                throw UsageError("--backend kernel works with a kernel adapter only (--adapter hciN); '\(a)' is not one. "
                    + "Serial and TCP controllers have no kernel host stack: leave --backend out for them")
            }
            backend = .kernel
        case let other: throw UsageError("--backend wants 'user-channel' or 'kernel', got '\(other)'")
        }
        securityOptions = try SecurityOptions(args)
        switch args.value("address") ?? "random" {
        case "random": usePublicAddress = false
        case "public": usePublicAddress = true
        case let other: throw UsageError("--address wants 'random' or 'public', got '\(other)'")
        }
        state = args.value("state-dir").map { StateDirectory(path: $0) } ?? StateDirectory.standard()
        trace = args.flag("trace")
        capturePath = args.value("capture")
        captureRedact = args.flag("capture-redact")
        if let c = capturePath {
            guard CaptureWriterFactory.kind(forPath: c) != nil else {
                throw UsageError("--capture \(c): the name must end in .btsnoop, .log or .pcap (that picks the format)")
            }
        }
        switch args.value("log-level") ?? "warn" {
        case "error": logLevel = .error
        case "warn", "warning": logLevel = .warn
        case "info": logLevel = .info
        case "debug": logLevel = .debug
        case let other: throw UsageError("--log-level wants error, warn, info or debug, got '\(other)'")
        }
    }

    /// The host's configuration: own address from the state directory unless `--address
    /// public`; security from `--security` and friends, with the state directory's bonds.
    func hostConfiguration() -> HostConfiguration {
        var configuration: HostConfiguration
        var identity: DeviceAddress?
        if usePublicAddress {
            configuration = HostConfiguration(ownAddress: .publicAddress)
        } else {
            let own = state.ownRandomStaticAddress()
            configuration = HostConfiguration(ownAddress: .randomStatic(own))
            identity = DeviceAddress(own, type: .randomDevice)
        }
        configuration.security = securityOptions.settings(state: state, identity: identity)
        return configuration
    }

    /// Where bonds are kept: the state directory.
    var bondStore: FileBondStore { FileBondStore(directory: state) }

    /// Tap sinks for --trace and --capture. The capture file is created here, on the calling
    /// thread, so that an unwritable path is reported before anything starts.
    func sinks(console: Console) throws(UsageError) -> [any PacketSinkFactory] {
        var out: [any PacketSinkFactory] = []
        if let path = capturePath {
            do {
                let w = try CaptureWriterFactory.create(path: path)
                try w.close()
            } catch {
                throw UsageError("--capture \(path): \(error)")
            }
            out.append(CaptureSinkFactory(path: path, err: console.err, redactKeys: captureRedact))
        }
        if trace { out.append(TraceSinkFactory(err: console.err)) }
        return out
    }
}
