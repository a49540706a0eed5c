import HostCore
import Wire

extension Peripheral {
    /// Signed Write Without Response (Core Spec v5.4 Vol 3, Part G, §4.9.2) with the CSRK
    /// rtstack distributed when it paired with this peer, from `bonds`.
    ///
    /// The bond's SignCounter is taken and the record stored back with it incremented *before*
    /// the command goes out, so no counter is ever used twice, even if rtstack stops right
    /// after (a peer drops a signed write whose counter is not above the last it accepted,
    /// Vol 3, Part H, §2.4.5). A refused write still uses up its counter; gaps are allowed.
    ///
    /// On a link already encrypted a Write Without Response *shall* be used instead (§4.9.2):
    /// then no bond is needed and no counter is used, and the outcome says so.
    ///
    /// Throws when there is no bond, the bond has no CSRK of rtstack's (pair with SignKey in
    /// the initiator key distribution) or the counter is exhausted.
    @discardableResult
    public func signedWrite(handle: UInt16, value: [UInt8], bonds: FileBondStore,
                            crypto: some SecurityCryptography) async throws -> SignedWriteOutcome {
        if await isEncrypted() {
            try await write(handle: handle, value: value, withResponse: false)
            return .unsignedOnEncryptedLink
        }
        guard let peer = connection?.peer else {
            throw CentralError.host(.invalidState("the link's peer address is not known"))
        }
        let found: BondRecord?
        do {
            found = try bonds.bond(for: peer) ?? bonds.bond(resolving: peer.address, crypto: crypto)
        } catch {
            throw CentralError.host(.invalidState("\(error)"))
        }
        guard var bond = found else {
            throw CentralError.host(.notFound("no bond with \(peer) in \(bonds.directory.path): a signed write needs the CSRK rtstack distributed when it paired with the peer"))
        }
        guard let csrk = bond.pairing.localSignatureKey else {
            throw CentralError.host(.notFound("the bond with \(bond.address) has no signing key of rtstack's (CSRK): pair again with SignKey in the initiator key distribution"))
        }
        let counter = bond.localSignCounter
        guard counter < UInt32.max else {
            throw CentralError.host(.invalidState("the SignCounter of the bond with \(bond.address) is exhausted: pair again for a new CSRK"))
        }
        bond.localSignCounter = counter + 1
        do {
            try bonds.store(bond)
        } catch {
            throw CentralError.host(.invalidState("the SignCounter could not be saved, so nothing was sent: \(error)"))
        }
        let write = crypto.signedWrite(handle: handle, value: value, csrk: csrk, signCounter: counter)
        _ = try await perform(.signedWrite(write))
        return .signed(signCounter: counter)
    }

    /// Whether the host has the link encrypted now.
    func isEncrypted() async -> Bool {
        let link = self.link
        return await withCheckedContinuation { c in
            let ok = central.onLoop { driver, _ in c.resume(returning: driver.host.isEncrypted(link)) }
            if !ok { c.resume(returning: false) }
        }
    }
}

/// How `Peripheral.signedWrite` sent its value.
public enum SignedWriteOutcome: Sendable, Equatable {
    /// As Signed Write Without Response with this SignCounter.
    case signed(signCounter: UInt32)
    /// As Write Without Response, the link being encrypted (Vol 3, Part G, §4.9.2).
    case unsignedOnEncryptedLink
}
