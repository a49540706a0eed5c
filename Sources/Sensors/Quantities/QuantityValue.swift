/// What one quantity holds right now.
public enum QuantityValue: Sendable, Hashable {
    /// A number, exact as sent.
    case number(DecimalNumber)
    /// On/off, open/closed, detected/clear.
    case boolean(Bool)
    /// Text: a URL, a name, an event ("press"), a hex string of raw bytes.
    case text(String)
    /// The sensor sent a value that stands for "no number": IEEE 11073 NaN/NRes/±INFINITY,
    /// ESS "value is not known", Eddystone "not supported". The reason says which; the value
    /// is published as `null` so that a consumer shows "unknown" rather than a made-up number.
    case unavailable(String)

    public var number: DecimalNumber? {
        if case .number(let n) = self { return n } else { return nil }
    }

    public var isAvailable: Bool {
        if case .unavailable = self { return false } else { return true }
    }
}
