/// One thing wrong with the gateway's configuration, and where: a line of the file or an
/// option of the command line.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Source: Sendable, Hashable {
        case file(line: Int)
        case option(String)
        /// The configuration as a whole (a device list that is empty, two settings that clash).
        case whole
    }

    public var source: Source
    /// The setting's path ("mqtt.qos", "devices[2].address").
    public var path: String
    public var message: String

    public init(_ source: Source, _ path: String, _ message: String) {
        self.source = source
        self.path = path
        self.message = message
    }

    /// "line 12: mqtt.qos: wants 0 or 1, got '2'", "option '--mqtt-qos': wants 0 or 1, got '2'".
    public var description: String {
        switch source {
        case .file(let line): return "line \(line): " + (path.isEmpty ? "" : path + ": ") + message
        case .option(let o): return "option '--\(o)': " + message
        case .whole: return (path.isEmpty ? "" : path + ": ") + message
        }
    }
}

/// Every problem found at once, so that a user fixes a file in one go.
public struct ConfigurationErrors: Error, Sendable, Hashable, CustomStringConvertible {
    public var errors: [ConfigurationError]
    public init(_ errors: [ConfigurationError]) { self.errors = errors }
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
