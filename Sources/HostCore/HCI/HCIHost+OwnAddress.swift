import Wire

/// Rotation of rtstack's own resolvable private address (Docs/security.md, "Own address:
/// resolvable private"). LE Set Random Address is disallowed while scanning or initiating
/// (Core Spec v5.4 Vol 4, Part E, §7.8.4), so a due rotation waits for a pending LE Create
/// Connection to end, holds back the next one, pauses the scan (`ControllerSchedule`), sets the
/// address, and lets both go on. Links already up keep the address they connected with: the
/// controller does not change it, and their security was given it at connection time.
extension HCIHost {
    /// LE Set Random Address with a fresh address, once the schedule has the controller quiet
    /// for it (no scan, no create pending).
    func setNewOwnAddress(at now: HostTime) {
        guard let address = privateAddress?.makeAddress() else {
            warn("no new resolvable private address: the random source gave only forbidden values; keeping the current one")
            privateAddress?.started(at: now)
            return
        }
        privateAddress?.sending(address)
        send(LESetRandomAddress(randomAddress: address), purpose: .ownAddress)
    }

    /// Answer of LE Set Random Address: on success new scans and connections use the new
    /// address; either way the scan and the initiator go on.
    func ownAddressAnswered(status: HCIStatus, at now: HostTime) {
        guard let address = privateAddress?.answered(at: now) else { return }
        if status.isSuccess {
            controllerInfo?.ownAddress = DeviceAddress(address, type: .randomDevice)
        } else {
            warn("LE Set Random Address \(address) failed: \(status); keeping the current address until the next rotation")
        }
        runSchedule(at: now)
    }
}
