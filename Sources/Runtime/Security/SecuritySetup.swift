import HostCore
import SecurityCrypto
import Wire

/// Builds the host's `SecuritySettings` from what the runtime keeps: Nettle's crypto, the
/// bonds of the state directory, and rtstack's own identity (its IRK, made once and kept
/// there, mode 0600), distributed when pairing so that bonded peers can resolve rtstack's
/// resolvable private addresses.
public enum SecuritySetup {
    public static let identityKeyFile = "identity-irk.txt"

    /// Settings for `level` and `ioCapability`, with the bonds of `state` and rtstack's
    /// identity (its address as `identityAddress`; nil: the controller's own, filled in when
    /// the controller is known).
    public static func settings(level: SecurityLevel, ioCapability: SMPIOCapability, bonding: Bool = true,
                                state: StateDirectory?, identityAddress: DeviceAddress?) -> SecuritySettings {
        var s = SecuritySettings()
        s.level = level
        s.crypto = NettleCryptography()
        s.pairing.ioCapability = ioCapability
        s.pairing.bonding = bonding
        s.pairing.securityLevel = max(level, .medium)
        if let state {
            s.bonds = FileBondStore(directory: state).list().bonds
            if let irk = identityResolvingKey(state) {
                s.pairing.localIdentity = LocalIdentity(irk: irk, address: identityAddress ?? DeviceAddress(.zero, type: .publicDevice))
            }
        }
        return s
    }

    /// rtstack's IRK from the state directory, made (from getrandom) and kept on first use;
    /// nil only when it can neither be read nor written.
    public static func identityResolvingKey(_ state: StateDirectory) -> UInt128? {
        if let text = state.read(identityKeyFile)?.split(separator: "\n").first,
           let irk = BondRecordCodec.value128(String(text)) {
            return irk
        }
        var crypto = NettleCryptography()
        let irk = crypto.random128()
        do {
            try state.write(identityKeyFile, BondRecordCodec.hex128(irk) + "\n", mode: 0o600)
        } catch {
            return nil
        }
        return irk
    }
}

extension FileBondStore: BondPersistence {
    public func keep(_ bond: BondRecord) throws(StateError) { try store(bond) }
    public func forget(_ address: DeviceAddress) { remove(address) }
}

/// Where the driver keeps the bonds the host reports (`SecurityEvent.bondStored` /
/// `.bondRemoved`), on the loop thread.
public protocol BondPersistence: AnyObject {
    func keep(_ bond: BondRecord) throws(StateError)
    func forget(_ address: DeviceAddress)
}
