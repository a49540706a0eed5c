#if canImport(Glibc)
import Glibc
#endif
import HostCore
import Runtime
import Wire

/// `--security`, `--io-capability`, `--passkey`, `--confirm-numbers`: what links must reach
/// and how rtstack answers during pairing, on either backend (Docs/security.md).
struct SecurityOptions {
    static let specs: [CommandSpec.Option] = [
        .init(.security, value: "low|medium|high|fips",
              "level every link must reach before it is used (default low: encrypt only when bonded, asked by the peer or needed by a request)"),
        .init(.ioCapability, value: "CAPABILITY",
              "what rtstack's user can do when pairing: keyboard-display, keyboard-only, display-yes-no, display-only or no-input-no-output (default keyboard-display with a terminal or --passkey/--confirm-numbers, else no-input-no-output)"),
        .init(.passkey, value: "N|-", "the passkey (0-999999) to type when the peer shows one, or - to read it from stdin when asked (scripts); without it rtstack asks on the terminal"),
        .init(.confirmNumbers, "accept numeric comparison without asking (the number is printed)"),
    ]

    var level: SecurityLevel
    var ioCapability: SMPIOCapability
    var passkey: UInt32?
    /// `--passkey -`: read the passkey from stdin when the peer shows one.
    var passkeyFromStdin = false
    var confirmsNumbers: Bool
    /// A terminal to ask on (stdin and stderr are terminals).
    var interactive: Bool
    /// Security was asked for (a level, an IO capability, an answer, or `rtstack pair`): on
    /// `--backend kernel` rtstack then sets the adapter's IO capability and bonding.
    var requested: Bool

    init(_ args: ParsedArguments) throws(UsageError) {
        let text = args.value(.security) ?? "low"
        guard let l = SecurityLevel(name: text) else {
            throw UsageError("--security wants low, medium, high or fips, got '\(text)'")
        }
        level = l
        if args.value(.passkey) == "-" {
            passkeyFromStdin = true
        } else if let p = args.value(.passkey) {
            guard p.count <= 6, let n = UInt32(p), n <= 999_999 else {
                throw UsageError("--passkey wants the six digits the peer shows (0-999999), got '\(p)'")
            }
            passkey = n
        }
        confirmsNumbers = args.flag(.confirmNumbers)
        interactive = isatty(0) == 1 && isatty(2) == 1
        if let c = args.value(.ioCapability) {
            guard let cap = Self.capabilities[c] else {
                throw UsageError("--io-capability wants \(Self.capabilities.keys.sorted().joined(separator: ", ")), got '\(c)'")
            }
            ioCapability = cap
        } else {
            ioCapability = interactive || passkey != nil || passkeyFromStdin || confirmsNumbers ? .keyboardDisplay : .noInputNoOutput
        }
        requested = level > .low || args.value(.ioCapability) != nil || args.value(.passkey) != nil || confirmsNumbers
        if level >= .high && ioCapability == .noInputNoOutput {
            throw UsageError("--security \(level.name) needs an authenticated pairing, which no-input-no-output cannot do: "
                + "give --passkey N (or --confirm-numbers), run on a terminal, or choose --io-capability")
        }
    }

    static let capabilities: [String: SMPIOCapability] = [
        "display-only": .displayOnly, "display-yes-no": .displayYesNo, "keyboard-only": .keyboardOnly,
        "no-input-no-output": .noInputNoOutput, "keyboard-display": .keyboardDisplay,
    ]

    /// The kernel backend's BT_SECURITY for the level (low: the kernel's default).
    var kernelLevel: KernelSecurityLevel? {
        level > .low ? KernelSecurityLevel(rawValue: UInt8(level.rawValue)) : nil
    }

    /// The host's settings: this level and IO capability, the state directory's bonds and
    /// rtstack's identity.
    func settings(state: StateDirectory, identity: DeviceAddress?) -> SecuritySettings {
        var s = SecuritySetup.settings(level: level, ioCapability: ioCapability, state: state, identityAddress: identity)
        s.configuresKernel = requested
        return s
    }

    func agent(_ console: Console) -> any PairingAgent {
        TerminalPairingAgent(passkey: passkey, confirmsNumbers: confirmsNumbers, interactive: interactive || passkeyFromStdin,
                             err: console.err)
    }
}
