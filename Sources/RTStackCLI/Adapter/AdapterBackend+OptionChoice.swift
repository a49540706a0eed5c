import HostCore
import Runtime

/// `--backend user-channel|kernel`.
extension AdapterBackend: OptionChoice {
    public var words: [String] { [rawValue] }
}
