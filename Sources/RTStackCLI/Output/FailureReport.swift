import HostCore
import Runtime
import Wire

/// What a command prints when it fails: the cause on the `rtstack:` line and, indented below
/// it, what to do. Every error the commands report comes through here, so each cause gets its
/// remedy from one place: the host's (`HostError.remedy`, the ATT error table), the adapter
/// advice, the security advice that knows how rtstack was run, or the command's own.
struct FailureReport {
    var lines: [String]
    var code: ExitCode

    /// `context`: what the command was doing ("connecting to …"), put before the cause.
    init(_ error: any Error, security: SecurityOptions? = nil, context: String? = nil) {
        let (cause, remedy, code) = Self.parts(error, security: security)
        lines = ["rtstack: " + (context.map { $0 + ": " } ?? "") + cause] + (remedy.map { ["  " + $0] } ?? [])
        self.code = code
    }

    /// The cause, its remedy (nil where the cause's sentence already ends with it: a usage
    /// error, the adapter advice) and the exit status.
    static func parts(_ error: any Error, security: SecurityOptions?) -> (String, String?, ExitCode) {
        switch error {
        case let u as UsageError:
            return (u.message, nil, .usage)
        case let f as CommandFailure:
            return (f.cause, f.remedy, f.code)
        case let h as HostError:
            return parts(CentralError.host(h), security: security)
        case let c as CentralError:
            if case .host(let h) = c, !isAdapter(h) {
                return (h.description, remedy(for: h, security: security), .failure)
            }
            switch c {
            case .closed, .timeout: return (AdapterAdvice.text(for: c), nil, .failure)
            default: return (AdapterAdvice.text(for: c), nil, .adapter)
            }
        default:
            return (AdapterAdvice.text(for: error), nil, .failure)
        }
    }

    func print(_ console: Console) {
        for line in lines { console.err.line(line) }
    }

    /// The remedy of a host error: advice that depends on how rtstack was run or on the
    /// command's options first, else the host's own.
    static func remedy(for error: HostError, security: SecurityOptions?) -> String {
        SecurityAdvice.hint(for: error, security: security) ?? optionAdvice(for: error) ?? error.remedy
    }

    static func isAdapter(_ error: HostError) -> Bool {
        if case .adapter = error { return true }
        return false
    }

    /// Remedies that name one command's options (`read`'s --fixed and --no-fallback).
    static func optionAdvice(for e: HostError) -> String? {
        switch e {
        case .unsupportedByPeer(let s) where s.containsText("Read Multiple Variable Length"):
            return "leave out --no-fallback to read the handles one by one, use --fixed, or --variable to send the request anyway"
        case .att where e.attErrorCode == .requestNotSupported:
            switch e.attRequestOpcode {
            case .readMultipleVariableRequest?:
                return "the peer does not support Read Multiple Variable Length (a server need not unless it supports EATT): leave out --no-fallback to read the handles one by one, or use --fixed"
            case .readMultipleRequest?:
                return "the peer does not support Read Multiple: read the handles one at a time"
            case .prepareWriteRequest?:
                return "the peer does not support prepared writes (long and reliable writes): write a value that fits one Write Request"
            default:
                return nil
            }
        default:
            return nil
        }
    }
}
