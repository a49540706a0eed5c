import HostCore
import RunTracker
import Runtime
import Sensors
import Wire

/// `rtstack --adapter ADAPTER`: the run session (heart rate, speed and cadence, temperature).
enum SessionCommand {
    static let spec = CommandSpec(
        name: "session",
        usage: "rtstack --adapter ADAPTER [--json] [--duration SECONDS] [--heart ADDRESS] [--speed ADDRESS] [--environment ADDRESS] [--only ROLES] [--no-cache] [ADAPTER OPTIONS]",
        summary: "The run session: find a heart-rate strap, a running speed & cadence pod and a temperature sensor, show their values live.",
        options: AdapterOptions.specs + [
            .init(.json, "JSON Lines on stdout instead of the live view, one object per event"),
            .init(.duration, value: "SECONDS", "end cleanly after this long (default: until Ctrl-C)"),
            .init(.heart, value: "ADDRESS", "use this heart-rate sensor (AA:BB:CC:DD:EE:FF[/public|/random])"),
            .init(.speed, value: "ADDRESS", "use this running speed & cadence sensor"),
            .init(.environment, value: "ADDRESS", "use this Thingy:52 or Environmental Sensing sensor"),
            .init(.only, value: "ROLES", "run with some sensors only, e.g. --only heart,speed"),
            .init(.noCache, "ignore and do not write the GATT cache"),
        ],
        details: """
        Sensors are found by the service they advertise (Heart Rate 0x180D, Running Speed and
        Cadence 0x1814, Thingy:52 EF680100-9B35-4933-9B10-52FFA9740042 or Environmental Sensing
        0x181A with Temperature 0x2A6E) unless an address is given.
        A missing sensor keeps being looked for; a dropped one reconnects and resumes.
        Ctrl-C or --duration ends the session: every link is disconnected, then a summary.
        JSON events: state, measurement, notice, summary (see README).
        """)

    static func run(_ words: [String], _ console: Console) throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested {
            console.out.write(spec.helpText)
            return .success
        }
        let options = try AdapterOptions(args)
        var config = SessionController.Configuration()
        if let only = args.value(.only) {
            var roles: [SensorRole] = []
            for part in only.split(separator: ",") {
                guard let r = SensorRole(rawValue: String(part)) else {
                    throw UsageError("--only: unknown sensor '\(part)' (use heart, speed, environment)")
                }
                roles.append(r)
            }
            config.roles = roles
        }
        for role in SensorRole.allCases {
            guard let text = args.value(role.optionKey) else { continue }
            do {
                let parsed = try DeviceAddress(parsing: text, defaultType: nil)
                config.fixedAddresses[role] = parsed.address
                config.fixedAddressTypes[role] = parsed.type
            } catch {
                // Without a type the address is matched on advertising, which tells the type.
                guard case .missingType = error, let a = BDAddress(string: text) else {
                    throw UsageError("--\(role.rawValue) \(text): \(error)")
                }
                config.fixedAddresses[role] = a
            }
        }
        let duration = try args.double(.duration, in: 0.1...31_536_000).map { UInt64($0 * 1e9) }
        let sinks = try options.sinks(console: console)
        let useCache = !args.flag(.noCache)
        let state = options.state
        let json = args.flag(.json)
        let logLevel = options.logLevel
        let result = ResultBox()
        let finalConfig = config
        let agent = options.securityOptions.agent(console)
        AdapterRunner.run(options: options, sinks: sinks, console: console, result: result) {
            SessionApplication(configuration: finalConfig, json: json, duration: duration, console: console,
                               logLevel: logLevel, cacheFiles: useCache ? FileGATTCache(directory: state) : nil,
                               result: result, agent: agent)
        }
        return result.value
    }
}

extension SensorRole {
    /// `--heart`, `--speed`, `--environment`: the sensor of this role named on the command line.
    var optionKey: OptionKey {
        switch self {
        case .heart: .heart
        case .speed: .speed
        case .environment: .environment
        }
    }
}
