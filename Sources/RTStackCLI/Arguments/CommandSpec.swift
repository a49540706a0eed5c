/// What a subcommand accepts, so that parsing, `--help` and error messages come from one table.
public struct CommandSpec: Sendable {
    public struct Option: Sendable {
        public var name: String          // without the leading dashes
        public var valueName: String?    // nil for a flag
        public var help: String
        public var repeatable: Bool

        public init(_ key: OptionKey, value: String? = nil, repeatable: Bool = false, _ help: String) {
            self.init(setting: key.rawValue, value: value, repeatable: repeatable, help)
        }

        /// An option made from a name outside `OptionKey`: the gateway's options come from its
        /// configuration file's settings (`GatewaySettings`) and are read as a whole.
        public init(setting name: String, value: String? = nil, repeatable: Bool = false, _ help: String) {
            self.name = name
            self.valueName = value
            self.help = help
            self.repeatable = repeatable
        }
    }

    public var name: String
    public var usage: String
    public var summary: String
    public var options: [Option]
    public var positionalRange: ClosedRange<Int>
    public var details: String

    public init(name: String, usage: String, summary: String, options: [Option],
                positionals: ClosedRange<Int> = 0...0, details: String = "") {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.options = options
        self.positionalRange = positionals
        self.details = details
    }

    public func option(named n: String) -> Option? { options.first { $0.name == n } }

    public var helpText: String {
        var s = "usage: \(usage)\n\n\(summary)\n"
        if !options.isEmpty {
            s += "\noptions:\n"
            let width = options.map { optionColumn($0).count }.max() ?? 0
            for o in options {
                let col = optionColumn(o)
                s += "  " + col + String(repeating: " ", count: width - col.count + 2) + o.help + "\n"
            }
        }
        if !details.isEmpty { s += "\n" + details + "\n" }
        return s
    }

    private func optionColumn(_ o: Option) -> String {
        "--" + o.name + (o.valueName.map { " " + $0 } ?? "")
    }
}
