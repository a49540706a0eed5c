import Gateway

/// The command-line side of the gateway's configuration: one option per setting of the file
/// (`GatewaySettings`, so both stay in step), `--config FILE` and repeatable `--device`. The
/// `rtstack gateway` command adds the options every adapter command has (log level, trace,
/// capture, own address) to these.
enum GatewayOptions {
    static var specs: [CommandSpec.Option] {
        [.init(.config, value: "FILE", "the configuration file (YAML, Docs/gateway.md); options given here override it")]
            + GatewaySettings.all.map { CommandSpec.Option(setting: $0.option, value: $0.valueName, repeatable: $0.isList, $0.help) }
            + [.init(.device, value: "KEY=VALUE,…", repeatable: true,
                     "a device entry: " + DeviceRuleKeys.all.map(\.name).joined(separator: ", ")
                        + " (lists joined with +), e.g. name=heart,address=C1:00:00:00:00:01/random,subscribe=2A37+2A19")]
    }

    /// The configuration from `--config` (when given) and the other options; every problem in
    /// one error, each line naming the file's line or the option.
    static func configuration(_ args: ParsedArguments) throws(UsageError) -> GatewayConfiguration {
        var text: String?
        if let path = args.value(.config) {
            do {
                text = try ConfigurationFile.read(path)
            } catch {
                throw UsageError("--config: " + error.description)
            }
        }
        var values = args.values
        values["config"] = nil
        do {
            return try GatewayConfigurationReader.read(yaml: text, commandLine: values)
        } catch {
            let source = args.value(.config).map { $0 + ": " } ?? ""
            throw UsageError(error.errors.map { e in
                if case .file = e.source { return source + e.description }
                return e.description
            }.joined(separator: "\n"))
        }
    }
}
