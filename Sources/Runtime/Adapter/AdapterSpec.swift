/// Which controller a session talks to: the parsed value of `--adapter`.
///
/// Accepted forms (see `AdapterSpec.acceptedForms`):
/// - `tcp:HOST:PORT` — H4 over TCP (a Bumble virtual controller, an emulator, ser2net).
///   IPv6 literals go in brackets: `tcp:[::1]:9000`.
/// - `serial:PATH[@BAUD][,noflow]` — H4 over a UART. BAUD defaults to 1000000 and RTS/CTS is
///   on unless `,noflow` is given.
/// - a bare `/dev/…` path, with the same optional `@BAUD` and `,noflow`.
/// - `hciN` — a Linux HCI user-channel socket on controller N.
/// - `replay:FILE` — a capture replayed as if it were a controller.
///
/// The serial default is 1000000 baud with RTS/CTS because that is what Zephyr's `hci_uart`
/// sample (the usual firmware on nRF52/nRF53 dongles and dev kits) uses out of the box; 115200
/// is the BlueZ `btattach` default but few LE controller firmwares ship with it.
public enum AdapterSpec: Sendable, Hashable, CustomStringConvertible {
    case tcp(host: String, port: UInt16)
    case serial(path: String, baudRate: Int, flowControl: Bool)
    case hciSocket(index: UInt16)
    case replay(path: String)

    public static let defaultSerialBaudRate = SerialTransport.defaultBaudRate

    public static let acceptedForms =
        "tcp:HOST:PORT, serial:/dev/ttyUSB0[@BAUD][,noflow], /dev/ttyACM0[@BAUD][,noflow], hciN, replay:FILE"

    /// The canonical text form; parsing it gives back the same value.
    public var description: String {
        switch self {
        case .tcp(let host, let port):
            return host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case .serial(let path, let baud, let flow):
            return "serial:\(path)@\(baud)" + (flow ? "" : ",noflow")
        case .hciSocket(let index):
            return "hci\(index)"
        case .replay(let path):
            return "replay:\(path)"
        }
    }

    /// Parses one `--adapter` value; the error names what is wrong and lists the accepted forms.
    public init(parsing text: String) throws(AdapterSpecError) {
        func fail(_ problem: AdapterSpecError.Problem) -> AdapterSpecError {
            AdapterSpecError(input: text, problem: problem)
        }
        if text.isEmpty { throw fail(.empty) }
        if let rest = text.dropPrefix("tcp:") {
            self = try Self.parseTCP(rest, fail: fail)
        } else if let rest = text.dropPrefix("serial:") {
            self = try Self.parseSerial(rest, fail: fail)
        } else if text.hasPrefix("/dev/") {
            self = try Self.parseSerial(Substring(text), fail: fail)
        } else if let rest = text.dropPrefix("replay:") {
            if rest.isEmpty { throw fail(.missingPath("replay")) }
            self = .replay(path: String(rest))
        } else if let rest = text.dropPrefix("hci") {
            guard !rest.isEmpty, rest.allSatisfy(\.isASCIIDigit), let index = UInt16(rest) else {
                throw fail(.invalidHCIIndex(String(rest)))
            }
            self = .hciSocket(index: index)
        } else {
            throw fail(.unknownForm)
        }
    }

    private static func parseTCP(
        _ rest: Substring, fail: (AdapterSpecError.Problem) -> AdapterSpecError
    ) throws(AdapterSpecError) -> AdapterSpec {
        guard let colon = rest.lastIndex(of: ":") else { throw fail(.missingPort) }
        var host = rest[..<colon]
        let portText = rest[rest.index(after: colon)...]
        if host.hasPrefix("[") && host.hasSuffix("]") && host.count >= 2 {
            host = host.dropFirst().dropLast()
        }
        if host.isEmpty { throw fail(.missingHost) }
        if portText.isEmpty { throw fail(.missingPort) }
        guard portText.allSatisfy(\.isASCIIDigit), let port = UInt16(portText), port != 0 else {
            throw fail(.invalidPort(String(portText)))
        }
        return .tcp(host: String(host), port: port)
    }

    private static func parseSerial(
        _ rest: Substring, fail: (AdapterSpecError.Problem) -> AdapterSpecError
    ) throws(AdapterSpecError) -> AdapterSpec {
        let parts = rest.split(separator: ",", omittingEmptySubsequences: false)
        let device = parts.first ?? ""
        var flowControl = true
        for option in parts.dropFirst() {
            switch option {
            case "noflow": flowControl = false
            case "flow": flowControl = true
            default: throw fail(.unknownSerialOption(String(option)))
            }
        }
        var path = device
        var baudRate = defaultSerialBaudRate
        if let at = device.lastIndex(of: "@") {
            path = device[..<at]
            let baudText = device[device.index(after: at)...]
            guard !baudText.isEmpty, baudText.allSatisfy(\.isASCIIDigit), let baud = Int(baudText) else {
                throw fail(.invalidBaudRate(String(baudText)))
            }
            guard SerialBaudRate.isSupported(baud) else { throw fail(.unsupportedBaudRate(baud)) }
            baudRate = baud
        }
        if path.isEmpty { throw fail(.missingPath("serial")) }
        guard path.hasPrefix("/") else { throw fail(.relativePath(String(path))) }
        return .serial(path: String(path), baudRate: baudRate, flowControl: flowControl)
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? self[index(startIndex, offsetBy: prefix.count)...] : nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
