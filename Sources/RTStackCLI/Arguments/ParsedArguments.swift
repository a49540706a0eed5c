/// Command-line words sorted into positionals, option values and flags, checked against a
/// `CommandSpec`. Every mistake becomes a `UsageError` that names the offending word.
public struct ParsedArguments: Sendable {
    public var positionals: [String] = []
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var helpRequested = false
    /// The option names the command's spec declares: reading any other is a programming error.
    private var declared: Set<String> = []

    public init(_ words: [String], spec: CommandSpec) throws(UsageError) {
        declared = Set(spec.options.map(\.name))
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
                    throw UsageError("option '--\(name)' given twice: give it once")
                }
                values[name, default: []].append(v)
            } else {
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value: write --\(name) alone") }
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

    public func value(_ key: OptionKey) -> String? { values[declaredName(key)]?.last }
    public func all(_ key: OptionKey) -> [String] { values[declaredName(key)] ?? [] }
    public func flag(_ key: OptionKey) -> Bool { flags.contains(declaredName(key)) }

    /// A key the spec does not declare would always read as absent: a command reading an option
    /// it forgot to declare (or another command's) is caught by the first test that runs it.
    private func declaredName(_ key: OptionKey) -> String {
        assert(declared.contains(key.rawValue), "--\(key.rawValue) is read but not declared in the command's spec")
        return key.rawValue
    }

    /// An option whose value is one of a fixed set of words (`--backend kernel`), parsed here
    /// for every such option so that they all accept and refuse alike; nil when not given.
    public func choice<C: OptionChoice>(_ key: OptionKey, as: C.Type = C.self) throws(UsageError) -> C? {
        guard let word = value(key) else { return nil }
        if let c = C.allCases.first(where: { $0.words.contains(word) }) { return c }
        let names = C.allCases.compactMap(\.words.first)
        let list = names.count == 2 ? "'\(names[0])' or '\(names[1])'"
            : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        throw UsageError("--\(key.rawValue) wants \(list), got '\(word)'")
    }

    /// A number option, range-checked, with an error naming the option when it is not one.
    public func double(_ name: OptionKey, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let s = value(name) else { return nil }
        guard let v = Double(s), v.isFinite, range.contains(v) else {
            throw UsageError("option '--\(name.rawValue)' wants a number from \(range.lowerBound) to \(range.upperBound), got '\(s)'")
        }
        return v
    }

    public func int(_ name: OptionKey, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let s = value(name) else { return nil }
        guard let v = Int(s), range.contains(v) else {
            throw UsageError("option '--\(name.rawValue)' wants a whole number from \(range.lowerBound) to \(range.upperBound), got '\(s)'")
        }
        return v
    }
}

/// The values of an option that takes one of a fixed set of words.
public protocol OptionChoice: CaseIterable, Sendable {
    /// The words that select this case; the first is the one help and errors show.
    var words: [String] { get }
}

/// A mistake on the command line; printed with `rtstack: ` and exit status 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
