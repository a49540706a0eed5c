/// Command-line words sorted into positionals, option values and flags, checked against a
/// `CommandSpec`. Every mistake becomes a `UsageError` that names the offending word.
public struct ParsedArguments: Sendable {
    public var positionals: [String] = []
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var helpRequested = false

    public init(_ words: [String], spec: CommandSpec) throws(UsageError) {
        var i = 0
        var onlyPositionals = false
        while i < words.count {
            let w = words[i]
            i += 1
            if onlyPositionals || !w.hasPrefix("--") || w == "-" {
                if w.hasPrefix("-"), w.count > 1, !onlyPositionals, w != "-" {
                    if w == "-h" { helpRequested = true; continue }
                    throw UsageError("unknown option '\(w)' for '\(spec.name)'; options start with '--' (see 'rtstack \(spec.name) --help')")
                }
                positionals.append(w)
                continue
            }
            if w == "--" { onlyPositionals = true; continue }
            var name = String(w.dropFirst(2))
            var inlineValue: String? = nil
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if name == "help" { helpRequested = true; continue }
            guard let opt = spec.option(named: name) else {
                let near = spec.options.map(\.name).filter { $0.hasPrefix(String(name.prefix(3))) }
                let hint = near.isEmpty ? "" : "; did you mean --\(near[0])?"
                throw UsageError("unknown option '--\(name)' for '\(spec.name)'\(hint) (see 'rtstack \(spec.name) --help')")
            }
            if let valueName = opt.valueName {
                let v: String
                if let iv = inlineValue {
                    v = iv
                } else {
                    guard i < words.count else {
                        throw UsageError("option '--\(name)' needs a value (\(valueName))")
                    }
                    v = words[i]
                    i += 1
                }
                if !opt.repeatable, values[name] != nil {
                    throw UsageError("option '--\(name)' given twice")
                }
                values[name, default: []].append(v)
            } else {
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value") }
                flags.insert(name)
            }
        }
        if !helpRequested {
            let range = spec.positionalRange
            if positionals.count < range.lowerBound {
                throw UsageError("'\(spec.name)' needs \(range.lowerBound == range.upperBound ? "" : "at least ")\(range.lowerBound) argument(s); usage: \(spec.usage)")
            }
            if positionals.count > range.upperBound {
                throw UsageError("unexpected argument '\(positionals[range.upperBound])' for '\(spec.name)'; usage: \(spec.usage)")
            }
        }
    }

    public func value(_ name: String) -> String? { values[name]?.last }
    public func all(_ name: String) -> [String] { values[name] ?? [] }
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A number option, range-checked, with an error naming the option when it is not one.
    public func double(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let s = value(name) else { return nil }
        guard let v = Double(s), v.isFinite, range.contains(v) else {
            throw UsageError("option '--\(name)' wants a number from \(range.lowerBound) to \(range.upperBound), got '\(s)'")
        }
        return v
    }

    public func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let s = value(name) else { return nil }
        guard let v = Int(s), range.contains(v) else {
            throw UsageError("option '--\(name)' wants a whole number from \(range.lowerBound) to \(range.upperBound), got '\(s)'")
        }
        return v
    }
}

/// A mistake on the command line; printed with `rtstack: ` and exit status 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
