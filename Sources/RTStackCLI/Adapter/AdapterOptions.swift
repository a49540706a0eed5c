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
        .init(.adapter, value: "ADAPTER", "hciN, tcp:HOST:PORT, serial:/dev/ttyX[@BAUD][,noflow] or /dev/ttyX"),
        .init(.backend, value: "user-channel|kernel", "with --adapter hciN: take the adapter for rtstack alone (user-channel, default) or share it with the kernel and bluetoothd (kernel)"),
        .init(.address, value: "random|public", "own address: a random static one kept in the state directory (default) or the controller's public one"),
        .init(.stateDir, value: "DIR", "where the own address and GATT caches live (default $XDG_STATE_HOME/rtstack)"),
        .init(.trace, "print every packet decoded with hex dump on stderr"),
        .init(.capture, value: "FILE", "write every packet to FILE.btsnoop or FILE.pcap as it runs (keys included, as on the wire)"),
        .init(.captureRedact, "zero key material (LTKs, IRKs, CSRKs) in --capture files"),
        .init(.logLevel, value: "LEVEL", "error, warn (default), info or debug"),
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

    enum LogLevel: Int, Comparable, OptionChoice {
        case error = 0, warn, info, debug
        static func < (l: LogLevel, r: LogLevel) -> Bool { l.rawValue < r.rawValue }
        var words: [String] {
            switch self {
            case .error: ["error"]
            case .warn: ["warn", "warning"]
            case .info: ["info"]
            case .debug: ["debug"]
            }
        }
    }

    /// `--address`: whose address the controller uses as its own.
    enum OwnAddress: OptionChoice {
        case random, `public`
        var words: [String] { [self == .random ? "random" : "public"] }
    }

    init(_ args: ParsedArguments) throws(UsageError) {
        guard let a = args.value(.adapter) else {
            throw UsageError("--adapter is required (e.g. --adapter hci0, --adapter tcp:127.0.0.1:9000, --adapter /dev/ttyACM0)")
        }
        do {
            adapter = try AdapterSpec(parsing: a)
        } catch {
            throw UsageError(error.description)
        }
        backend = try args.choice(.backend, as: AdapterBackend.self) ?? .userChannel
        if backend == .kernel {
            guard case .hciSocket = adapter else {
                throw UsageError("--backend kernel works with a kernel adapter only (--adapter hciN); '\(a)' is not one. "
                    + "Serial and TCP controllers have no kernel host stack: leave --backend out for them")
            }
        }
        securityOptions = try SecurityOptions(args)
        usePublicAddress = try args.choice(.address, as: OwnAddress.self) == .public
        state = args.value(.stateDir).map { StateDirectory(path: $0) } ?? StateDirectory.standard()
        trace = args.flag(.trace)
        capturePath = args.value(.capture)
        captureRedact = args.flag(.captureRedact)
        if let c = capturePath {
            guard CaptureWriterFactory.kind(forPath: c) != nil else {
                throw UsageError("--capture \(c): the name must end in .btsnoop, .log or .pcap (that picks the format)")
            }
        }
        logLevel = try args.choice(.logLevel, as: LogLevel.self) ?? .warn
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
