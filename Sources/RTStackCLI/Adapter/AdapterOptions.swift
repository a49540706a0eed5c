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
        .init(.adapter, value: "ADAPTER", "hciN, tcp:HOST:PORT, serial:/dev/ttyX[@BAUD][,noflow], /dev/ttyX, or replay:CAPTURE (a capture plays the controller)"),
        .init(.backend, value: "user-channel|kernel", "with --adapter hciN: take the adapter for rtstack alone (user-channel, default) or share it with the kernel and bluetoothd (kernel)"),
        .init(.address, value: "random|public|rpa", "own address: a random static one kept in the state directory (default), the controller's public one, or a resolvable private one made from rtstack's IRK (state directory) and renewed every 15 minutes, scanning paused a moment for it; not with --backend kernel, where the kernel owns the address (btmgmt privacy on)"),
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
    var ownAddress: OwnAddress
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
        case random, `public`, rpa
        var words: [String] {
            switch self {
            case .random: ["random"]
            case .public: ["public"]
            case .rpa: ["rpa"]
            }
        }
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
        ownAddress = try args.choice(.address, as: OwnAddress.self) ?? .random
        state = args.value(.stateDir).map { StateDirectory(path: $0) } ?? StateDirectory.standard()
        if ownAddress == .rpa {
            guard backend != .kernel else {
                throw UsageError("--address rpa does not work with --backend kernel: the kernel manages the adapter's own address; "
                    + "have it use resolvable private addresses with 'btmgmt privacy on'")
            }
            guard SecuritySetup.identityResolvingKey(state) != nil else {
                throw UsageError("--address rpa needs rtstack's IRK, kept in \(state.path)/\(SecuritySetup.identityKeyFile), "
                    + "which can be neither read nor written (see --state-dir)")
            }
        }
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
    /// With `--address rpa` the state directory's static address stays rtstack's identity
    /// (what bonded peers are given with the IRK), and the RPAs are made from that IRK.
    func hostConfiguration() -> HostConfiguration {
        var configuration: HostConfiguration
        var identity: DeviceAddress?
        switch ownAddress {
        case .public:
            configuration = HostConfiguration(ownAddress: .publicAddress)
        case .random, .rpa:
            let own = state.ownRandomStaticAddress()
            configuration = HostConfiguration(ownAddress: ownAddress == .rpa
                ? .resolvablePrivate(rotation: HostConfiguration.OwnAddress.privateAddressTimeout) : .randomStatic(own))
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
