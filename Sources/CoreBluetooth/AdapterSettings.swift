import Foundation
import HostCore
import Runtime
import Wire

/// Where the adapter comes from, since an app has no `--adapter`: the rtstack option keys of
/// `CBCentralManager(delegate:queue:options:)`, else the environment (`RTSTACK_ADAPTER`,
/// `RTSTACK_BACKEND`, `RTSTACK_STATE_DIR`, `RTSTACK_PASSKEY`), else `hci0` on the HCI user
/// channel with the standard state directory.
struct AdapterSettings: Sendable, Equatable {
    var adapter: AdapterSpec
    var backend: AdapterBackend
    var stateDirectory: String
    var passkey: UInt32?

    /// The settings, or a sentence naming the value that is wrong and the accepted forms.
    static func resolve(options: [String: String], environment: [String: String]) -> Result<AdapterSettings, SettingsError> {
        func value(_ key: String) -> String? {
            if let v = options[key], !v.isEmpty { return v }
            if let v = environment[key], !v.isEmpty { return v }
            return nil
        }
        let adapterText = value(CBCentralManagerOptionRTStackAdapterKey) ?? "hci0"
        let adapter: AdapterSpec
        do {
            adapter = try AdapterSpec(parsing: adapterText)
        } catch {
            return .failure(SettingsError("\(CBCentralManagerOptionRTStackAdapterKey)=\(adapterText): \(error.description)"))
        }
        var backend = AdapterBackend.userChannel
        if let b = value(CBCentralManagerOptionRTStackBackendKey) {
            guard let parsed = AdapterBackend(rawValue: b) else {
                return .failure(SettingsError("\(CBCentralManagerOptionRTStackBackendKey)=\(b): give user-channel or kernel"))
            }
            guard parsed == .userChannel || { if case .hciSocket = adapter { return true } else { return false } }() else {
                return .failure(SettingsError("\(CBCentralManagerOptionRTStackBackendKey)=kernel needs a kernel adapter (hciN), not \(adapter)"))
            }
            backend = parsed
        }
        var passkey: UInt32?
        if let p = value(CBCentralManagerOptionRTStackPasskeyKey) {
            guard p.count <= 6, p.allSatisfy({ ("0"..."9").contains($0) }), let n = UInt32(p) else {
                return .failure(SettingsError("\(CBCentralManagerOptionRTStackPasskeyKey)=\(p): a passkey is six digits, 000000 to 999999"))
            }
            passkey = n
        }
        let state = value(CBCentralManagerOptionRTStackStateDirectoryKey) ?? StateDirectory.standard().path
        return .success(AdapterSettings(adapter: adapter, backend: backend, stateDirectory: state, passkey: passkey))
    }

    /// The host's configuration as the CLI's default (`--address random`): rtstack's random
    /// static address from the state directory, pairing on demand (Just Works, or Passkey
    /// Entry when a passkey is given) with its bonds.
    func hostConfiguration() -> HostConfiguration {
        let state = StateDirectory(path: stateDirectory)
        try? state.create()
        let own = state.ownRandomStaticAddress()
        var configuration = HostConfiguration(ownAddress: .randomStatic(own))
        configuration.security = SecuritySetup.settings(level: .low, ioCapability: passkey == nil ? .noInputNoOutput : .keyboardOnly,
                                                        state: state, identityAddress: DeviceAddress(own, type: .randomDevice))
        return configuration
    }
}

/// A setting that cannot be used, in a sentence.
struct SettingsError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
