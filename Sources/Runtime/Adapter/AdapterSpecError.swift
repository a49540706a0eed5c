/// A `--adapter` value that does not parse: the input, what is wrong with it, and (in
/// `description`) the forms that are accepted.
public struct AdapterSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Problem: Sendable, Hashable {
        case empty
        /// No known prefix (`tcp:`, `serial:`, `/dev/`, `hci`, `replay:`).
        case unknownForm
        case missingHost
        case missingPort
        case invalidPort(String)
        /// `serial:` or `replay:` without a path; the associated value names which.
        case missingPath(String)
        case relativePath(String)
        case invalidBaudRate(String)
        case unsupportedBaudRate(Int)
        case unknownSerialOption(String)
        case invalidHCIIndex(String)
    }

    public let input: String
    public let problem: Problem

    public init(input: String, problem: Problem) {
        self.input = input
        self.problem = problem
    }

    /// The problem alone, without the accepted forms.
    public var reason: String {
        switch problem {
        case .empty:
            return "the value is empty"
        case .unknownForm:
            if input.hasPrefix("tty") { return "unknown adapter form (a serial port needs its full path: /dev/\(input))" }
            return "unknown adapter form"
        case .missingHost:
            return "the host is missing in tcp:HOST:PORT"
        case .missingPort:
            return "the port is missing in tcp:HOST:PORT"
        case .invalidPort(let text):
            return "'\(text)' is not a TCP port (1–65535)"
        case .missingPath(let kind):
            return "\(kind): needs a file path"
        case .relativePath(let path):
            return "the serial port path '\(path)' must be absolute (e.g. /dev/ttyACM0)"
        case .invalidBaudRate(let text):
            return "'\(text)' is not a baud rate (expected digits after '@')"
        case .unsupportedBaudRate(let rate):
            return "baud rate \(rate) is not supported; supported rates: \(SerialBaudRate.supportedList)"
        case .unknownSerialOption(let option):
            return "unknown serial option '\(option)' (known: noflow)"
        case .invalidHCIIndex(let text):
            return text.isEmpty ? "hciN needs a controller number (hci0)" : "'\(text)' is not a controller number in hciN"
        }
    }

    public var description: String {
        "invalid adapter '\(input)': \(reason). Accepted forms: \(AdapterSpec.acceptedForms)"
    }
}
