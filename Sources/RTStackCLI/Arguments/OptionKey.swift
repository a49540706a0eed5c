/// Every option name the commands accept. Specs declare options and commands read them by
/// these cases, so a misspelt key fails to compile instead of silently reading as absent;
/// reading an option the command's spec does not declare traps in debug builds (every
/// command's options are exercised by the CLI tests).
public enum OptionKey: String, Sendable, CaseIterable {
    case adapter
    case address
    case advEvery = "adv-every"
    case advSummary = "adv-summary"
    case backend
    case brief
    case capture
    case captureRedact = "capture-redact"
    case characteristic
    case config
    case confirmNumbers = "confirm-numbers"
    case controlSocket = "control-socket"
    case device
    case duration
    case environment
    case filter
    case fixed
    case from
    case gattCache = "gatt-cache"
    case heart
    case hex
    case index
    case indicate
    case ioCapability = "io-capability"
    case json
    case logLevel = "log-level"
    case name
    case noCache = "no-cache"
    case noFallback = "no-fallback"
    case noGattCache = "no-gatt-cache"
    case noResponse = "no-response"
    case noSummary = "no-summary"
    case noValues = "no-values"
    case only
    case passive
    case passkey
    case peer
    case range
    case reliable
    case security
    case service
    case showKeys = "show-keys"
    case signed
    case speed
    case stateDir = "state-dir"
    case summaryOnly = "summary-only"
    case trace
    case variable
    case write
}
