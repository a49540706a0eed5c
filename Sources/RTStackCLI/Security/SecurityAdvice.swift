import HostCore
import Wire

/// What to do when a request or a pairing fails for want of security. The host names the
/// cause; whether rtstack could have offered more depends on how it was run (a terminal,
/// `--passkey`, `--io-capability`), which only the command line knows.
enum SecurityAdvice {
    /// The remedy for `error` with these options, nil when the host's own (`HostError.remedy`)
    /// says it: only what depends on how rtstack was run is here.
    static func hint(for error: HostError, security: SecurityOptions?) -> String? {
        switch error {
        case .att where error.attErrorCode == .insufficientAuthentication:
            return authentication(security, what: "the peer needs an authenticated (MITM-protected) bond for this")
        case .security(.pairing(.peerFailed(.authenticationRequirements))), .security(.pairing(.authenticationRequirements)):
            return authentication(security, what: "the pairing needs MITM protection")
        case .security(.pairing(.passkeyEntryFailed)):
            return "no passkey was given: rtstack asks on a terminal; from a script give --passkey N, or --passkey - to read it from stdin"
        case .security(.pairing(.numericComparisonRejected)):
            return "the numbers were not confirmed: on a terminal answer y when they match, or give --confirm-numbers"
        default:
            return nil
        }
    }

    /// MITM protection needs a passkey or numeric comparison: with NoInputNoOutput (a script
    /// without --passkey) rtstack can only offer Just Works, so it says so and names the options.
    private static func authentication(_ security: SecurityOptions?, what: String) -> String {
        let io = security?.ioCapability ?? .noInputNoOutput
        guard io == .noInputNoOutput else {
            return what + "; rtstack paired as \(io.name) and the peer still refuses: its own IO capability may allow only "
                + "Just Works with rtstack's, or it wants LE Secure Connections (--security fips)"
        }
        return what + ", and rtstack could offer only Just Works (no terminal, no --passkey: IO capability NoInputNoOutput). "
            + "Give --passkey - (the passkey the peer shows is read from stdin), --passkey N, --confirm-numbers, "
            + "or --io-capability keyboard-display, or run it on a terminal"
    }
}
