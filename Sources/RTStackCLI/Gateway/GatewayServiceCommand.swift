#if canImport(Glibc)
import Glibc
#endif
import Capture
import ESPHomeAPI
import Gateway
import HostCore
import MQTT
import Runtime
import Service
import Wire

/// `rtstack gateway`: the long-running service — devices kept connected on any number of
/// adapters, their values published to an MQTT broker, a local control socket (Docs/gateway.md).
enum GatewayServiceCommand {
    static let spec = CommandSpec(
        name: "gateway",
        usage: "rtstack gateway --adapter ADAPTER[,ADAPTER…] {--mqtt mqtt://HOST[:PORT] | --esphome [HOST:]PORT} [--config FILE] [--device KEY=VALUE,…]... [--trace] [--capture FILE] [--log-level LEVEL] [--address random|public|rpa] [SETTINGS]",
        summary: "Keep sensors connected on one or more adapters and publish them to MQTT (Home Assistant discovery, a control socket); be Home Assistant's Bluetooth proxy (ESPHome's API).",
        options: GatewayOptions.specs + AdapterOptions.specs.filter { [OptionKey.trace, .capture, .logLevel, .address].map(\.rawValue).contains($0.name) },
        details: """
        Every setting of the configuration file is also an option (Docs/gateway.md has both).
        Without devices, the run session's three sensor kinds are kept connected: heart rate
        (0x180D), running speed and cadence (0x1814), a Thingy:52 or an Environmental Sensing
        sensor (0x181A), found by the service they advertise.
        Several adapters (--adapter hci0,tcp:127.0.0.1:9000): a link goes to an adapter with a
        free connection slot that hears the device best; slots are learned from the controllers'
        refusals; a lost adapter's links move to the others, and it is opened again when it is back.
        --esphome [HOST:]PORT also serves ESPHome's native API (port 6053), so Home Assistant uses
        the gateway as a Bluetooth proxy: advertisements, connections on the adapters' free slots
        (added up), Just Works pairing with bonds in the state directory; --esphome-key BASE64 (32 bytes, `openssl rand -base64 32`) accepts only clients
        holding it. With --esphome, --mqtt is optional; without --mqtt and devices, the gateway
        connects nothing of its own accord.
        SIGHUP reloads the configuration (unchanged devices keep their links); SIGTERM or Ctrl-C
        disconnects every link, publishes offline and ends. Runs under systemd with Type=notify and
        the watchdog (Docs/systemd/rtstack-gateway.service).
        Exit status: 0 stopped cleanly, 2 bad configuration, 3 no adapter could be opened or MQTT
        is unavailable (libmosquitto missing), 1 anything else.
        """)

    static func run(_ words: [String], _ console: Console) throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested {
            console.out.write(spec.helpText)
            return .success
        }
        let configuration = try GatewayOptions.configuration(args)
        let logLevel: LogLine.Level
        switch try args.choice(.logLevel, as: AdapterOptions.LogLevel.self) ?? .warn {
        case .error: logLevel = .error
        case .warn: logLevel = .notice
        case .info: logLevel = .info
        case .debug: logLevel = .debug
        }
        let log = GatewayLog(line: LogLine.detect(), threshold: logLevel, err: console.err)
        let setup = try Setup(configuration: configuration, args: args, console: console)

        var mqtt: MQTTClient?
        if let configuration = setup.mqttConfiguration {
            do {
                mqtt = try MQTTClient(configuration: configuration)
            } catch {
                console.err.line("rtstack: MQTT: \(error)")
                return .adapter
            }
        }
        var opened: [Int: any AdapterIO] = [:]
        var problems: [String] = []
        for a in setup.adapters {
            do {
                opened[a.index] = try a.spec.open(backend: a.backend, configuration: a.hostConfiguration, sinks: a.sinks,
                                                  notice: console.notice)
            } catch {
                problems.append("\(a.name): \(AdapterAdvice.text(for: error))")
            }
        }
        for p in problems { log.write(opened.isEmpty ? .error : .warning, p + (opened.isEmpty ? "" : "; trying again later")) }
        if opened.isEmpty {
            console.err.line("rtstack: no adapter could be opened")
            return .adapter
        }
        var control: ControlServer?
        if !configuration.control.isOff {
            do {
                control = try ControlServer(path: configuration.control.socket ?? ControlServer.defaultPath(),
                                            mode: configuration.control.mode, group: configuration.control.group)
            } catch {
                for (_, io) in opened { io.close() }
                console.err.line("rtstack: \(error)")
                return .failure
            }
        }
        var esphome: ESPHomeServer?
        var announcer: ESPHomeAnnouncer?
        if let (endpoint, identity) = setup.esphome {
            do {
                let server = try ESPHomeServer(endpoint: endpoint, identity: identity, key: configuration.esphome.key)
                esphome = server
                if !server.address.isLoopback {
                    announcer = ESPHomeAnnouncer(announcement: ESPHomeAnnouncement(
                        identity: identity, port: server.port, encrypted: configuration.esphome.key != nil, network: ESPHomeAnnouncer.currentNetwork()))
                }
            } catch {
                for (_, io) in opened { io.close() }
                console.err.line("rtstack: \(error)")
                return .failure
            }
        }
        let notifier: ServiceNotifier?
        do {
            notifier = try ServiceNotifier.fromEnvironment()
        } catch {
            log.write(.warning, "sd_notify: \(error)")
            notifier = nil
        }
        let controller = GatewayController(configuration: configuration, options: setup.controllerOptions)
        let result = ResultBox()
        let signals = try? SignalWatcher.install()
        let hangup = try? HangupWatcher.install()
        let reread = setup.reloader
        let makeAdapter = setup.adapterMaker
        let parts = GatewayDriver.Parts(controller: controller, mqtt: mqtt, adapters: setup.adapters, opened: opened, control: control,
                                        esphome: esphome, announcer: announcer, hangup: hangup, notifier: notifier, log: log, reloader: reread,
                                        makeAdapter: makeAdapter, result: result)
        let loop: EventLoop<GatewayDriver>
        do {
            loop = try EventLoop<GatewayDriver>.start(name: "rtstack-gateway", signals: signals) { context in
                GatewayDriver(context: context, parts: parts, at: MonotonicClock.now())
            }
        } catch {
            console.err.line("rtstack: \(error.description)")
            return .failure
        }
        loop.join()
        hangup?.uninstall()
        signals?.uninstall()
        console.out.flush()
        console.err.flush()
        return result.value
    }

    /// What the command works out before anything runs: the gateway id, the adapters with their
    /// own addresses, the MQTT client's configuration, the controller's options, and how a
    /// reload reads the configuration again.
    struct Setup {
        var gatewayID: String
        var adapters: [GatewayDriver.AdapterRuntime]
        /// nil: no broker (`--esphome` without `--mqtt`).
        var mqttConfiguration: MQTTClientConfiguration?
        /// Where ESPHome's API listens and what the proxy says it is; nil: not served.
        var esphome: (ESPHomeEndpoint, ProxyIdentity)?
        var controllerOptions: GatewayController.Options
        var reloader: () -> Result<GatewayConfiguration, GatewayProblem>
        var adapterMaker: (String, Int) -> GatewayDriver.AdapterRuntime?

        init(configuration c: GatewayConfiguration, args: ParsedArguments, console: Console) throws(UsageError) {
            gatewayID = c.gatewayID ?? Self.hostName()
            let state = c.stateDirectory.map { StateDirectory(path: $0) } ?? StateDirectory.standard()
            try? state.create()
            let backend = c.backend ?? .userChannel
            let publicAddress = try args.choice(.address, as: AdapterOptions.OwnAddress.self) == .public
            let trace = args.flag(.trace)
            let capture = args.value(.capture)
            if let path = capture, CaptureWriterFactory.kind(forPath: path) == nil {
                throw UsageError("--capture \(path): the name must end in .btsnoop, .log or .pcap (that picks the format)")
            }
            let err = console.err
            let many = c.adapters.count > 1
            let proxy = c.esphome.listen != nil
            let make: (String, Int) -> GatewayDriver.AdapterRuntime? = { name, index in
                guard let spec = try? AdapterSpec(parsing: name) else { return nil }
                var kernel = backend
                if case .hciSocket = spec {} else { kernel = .userChannel }
                var own: HostConfiguration = publicAddress ? HostConfiguration(ownAddress: .publicAddress)
                    : HostConfiguration(ownAddress: .randomStatic(state.ownRandomStaticAddress(file: index == 0 ? "address" : "address-" + TopicLevel.sanitize(name))))
                // The proxy's clients pair (Just Works: nobody at the board to type a passkey),
                // with the bonds of the state directory, where new ones are kept.
                let pairs = proxy && kernel != .kernel
                if pairs { own.security = SecuritySetup.settings(level: .low, ioCapability: .noInputNoOutput, state: state, identityAddress: nil) }
                var sinks: [any PacketSinkFactory] = []
                if let path = capture { sinks.append(CaptureSinkFactory(path: many ? Self.capturePath(path, index) : path, err: err)) }
                if trace { sinks.append(TraceSinkFactory(err: err)) }
                return GatewayDriver.AdapterRuntime(index: index, spec: spec, backend: kernel, hostConfiguration: own, sinks: sinks,
                                                    bondStore: pairs ? FileBondStore(directory: state) : nil)
            }
            var list: [GatewayDriver.AdapterRuntime] = []
            for (i, name) in c.adapters.enumerated() {
                // `backend` applies to the hciN adapters; serial and TCP controllers always use HCI.
                guard let a = make(name, i) else { throw UsageError("--adapter: '\(name)' is not an adapter") }
                list.append(a)
            }
            adapters = list
            adapterMaker = make
            // Pairing is served when every adapter's host pairs (the kernel's backend leaves it to bluetoothd).
            let proxyPairs = proxy && !list.contains { $0.backend == .kernel }

            if let broker = c.mqtt.broker {
                var password = c.mqtt.password
                if let file = c.mqtt.passwordFile {
                    do { password = try ConfigurationFile.password(file) } catch { throw UsageError("mqtt.password_file: \(error.description)") }
                }
                let topics = GatewayTopics(prefix: c.mqtt.topicPrefix, gatewayID: gatewayID)
                let mqtt = MQTTClientConfiguration(
                    broker: broker, clientID: c.mqtt.clientID ?? "rtstack-" + gatewayID, username: c.mqtt.username, password: password,
                    caFile: c.mqtt.caFile, certificateFile: c.mqtt.certificateFile, keyFile: c.mqtt.keyFile, keepAlive: c.mqtt.keepAlive,
                    availability: .init(topic: topics.availability), queueLimit: c.mqtt.queueLimit)
                if let p = mqtt.problem { throw UsageError("mqtt: \(p)") }
                mqttConfiguration = mqtt
            } else if c.esphome.listen == nil {
                throw UsageError("no broker: give one with --mqtt mqtt://HOST (or serve Home Assistant's Bluetooth proxy API: --esphome :6053)")
            }
            if let listen = c.esphome.listen {
                let endpoint: ESPHomeEndpoint
                do throws(ESPHomeServerError) {
                    endpoint = try ESPHomeEndpoint(parsing: listen)
                } catch {
                    throw UsageError(error.description)
                }
                // The address Home Assistant knows the proxy by: the first adapter's own random
                // static address, kept in the state directory, so it is the same on every start.
                let mac = state.ownRandomStaticAddress(file: "address").string
                let name = c.esphome.name ?? Self.hostName()
                esphome = (endpoint, ProxyIdentity(name: name, friendlyName: name, macAddress: mac, bluetoothMACAddress: mac,
                                                   serverInfo: "rtstack \(RTStackCLI.version)", features: GatewayController.proxyFeatures(pairing: proxyPairs)))
            }
            var options = GatewayController.Options(gatewayID: gatewayID, version: RTStackCLI.version, cipher: NettleAESCCM(),
                                                    cache: CacheBridge(FileGATTCache(directory: state)),
                                                    wallClock: Self.wallClock)
            options.servesProxy = esphome != nil
            options.proxyPairs = proxyPairs
            options.forgetBond = { FileBondStore(directory: state).remove($0) }
            controllerOptions = options
            let path = args.value(.config)
            var values = args.values
            values["config"] = nil
            reloader = {
                var text: String?
                if let path {
                    do throws(ConfigurationError) {
                        text = try ConfigurationFile.read(path)
                    } catch {
                        return .failure(GatewayProblem(text: error.description))
                    }
                }
                do throws(ConfigurationErrors) {
                    return .success(try GatewayConfigurationReader.read(yaml: text, commandLine: values))
                } catch {
                    return .failure(GatewayProblem(text: error.errors.map(\.description).joined(separator: "\n")))
                }
            }
        }

        /// `x.btsnoop` → `x-1.btsnoop` for the second adapter.
        static func capturePath(_ path: String, _ index: Int) -> String {
            guard index > 0 else { return path }
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return path + "-\(index)" }
            return String(path[..<dot]) + "-\(index)" + String(path[dot...])
        }

        static func hostName() -> String {
            var buffer = [CChar](repeating: 0, count: 256)
            guard gethostname(&buffer, buffer.count - 1) == 0 else { return "gateway" }
            let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return TopicLevel.sanitize(String(name.prefix { $0 != "." }))
        }

        @Sendable static func wallClock() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_REALTIME, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
    }
}
