import Wire

/// How the two devices authenticate each other (Core Spec v5.4 Vol 3, Part H, §2.3.5.1).
/// Out of Band is not offered: rtstack never sets the OOB data flag.
public enum AssociationModel: Sendable, Hashable {
    /// No user involvement; no protection against a man in the middle.
    case justWorks
    /// Both devices show a six-digit number and the users confirm they match (Secure
    /// Connections only).
    case numericComparison
    /// A six-digit passkey shown on one device and typed on the other, or typed on both.
    case passkeyEntry(PasskeyEntryRole)

    /// Who shows and who types the passkey, seen from the initiator (rtstack).
    public enum PasskeyEntryRole: Sendable, Hashable {
        /// rtstack makes up the passkey and shows it; the peer's user types it.
        case initiatorDisplays
        /// The peer shows the passkey; rtstack's user types it.
        case responderDisplays
        /// Both users type the same passkey.
        case bothInput
    }

    /// Whether the key it produces is authenticated (MITM protection).
    public var isAuthenticated: Bool { self != .justWorks }

    public var name: String {
        switch self {
        case .justWorks: return "Just Works"
        case .numericComparison: return "Numeric Comparison"
        case .passkeyEntry(.initiatorDisplays): return "Passkey Entry (rtstack displays)"
        case .passkeyEntry(.responderDisplays): return "Passkey Entry (peer displays)"
        case .passkeyEntry(.bothInput): return "Passkey Entry (both enter)"
        }
    }

    /// The model of Table 2.8 for these IO capabilities. Just Works when neither side asked
    /// for MITM protection (§2.3.5.1); reserved capabilities count as NoInputNoOutput (the
    /// Pairing Response check refuses them before this is asked).
    public static func select(initiator: SMPIOCapability, responder: SMPIOCapability,
                              secureConnections: Bool, mitmRequested: Bool) -> AssociationModel {
        guard mitmRequested else { return .justWorks }
        switch (initiator, responder) {
        case (.noInputNoOutput, _), (_, .noInputNoOutput):
            return .justWorks
        case (.displayOnly, .displayOnly), (.displayOnly, .displayYesNo),
             (.displayYesNo, .displayOnly):
            return .justWorks
        case (.displayOnly, .keyboardOnly), (.displayOnly, .keyboardDisplay),
             (.displayYesNo, .keyboardOnly), (.keyboardDisplay, .keyboardOnly):
            return .passkeyEntry(.initiatorDisplays)
        case (.keyboardOnly, .displayOnly), (.keyboardOnly, .displayYesNo), (.keyboardOnly, .keyboardDisplay),
             (.keyboardDisplay, .displayOnly):
            return .passkeyEntry(.responderDisplays)
        case (.keyboardOnly, .keyboardOnly):
            return .passkeyEntry(.bothInput)
        case (.displayYesNo, .displayYesNo):
            return secureConnections ? .numericComparison : .justWorks
        case (.displayYesNo, .keyboardDisplay), (.keyboardDisplay, .keyboardDisplay):
            return secureConnections ? .numericComparison : .passkeyEntry(.initiatorDisplays)
        case (.keyboardDisplay, .displayYesNo):
            return secureConnections ? .numericComparison : .passkeyEntry(.responderDisplays)
        default:
            return .justWorks
        }
    }
}
