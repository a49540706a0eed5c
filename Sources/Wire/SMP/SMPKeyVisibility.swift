/// Whether a field description shows key material (LTK, IRK, CSRK) or stands a placeholder
/// in for it. `--trace`, `rtstack decode` and logs redact by default: a trace pasted into a
/// bug report must not hand out the keys of a bond. Captures keep the bytes either way (they
/// are the packets); see Docs/security.md.
public enum SMPKeyVisibility: Sendable, Hashable {
    case redacted
    case shown

    /// What a redacted key is shown as.
    public static let placeholder = "(redacted)"
}
