import Wire

extension HCIHost {
    /// Whether the controller takes scan commands while an LE Create Connection is pending:
    /// its LE Supported States (Vol 4, Part E, §7.8.27, "Active/Passive Scanning and
    /// Initiating") say so, and it has not refused one yet (a refusal teaches the host
    /// otherwise until the next reset). Unknown states are tried, and learnt from.
    func controllerScansWhileInitiating(active: Bool) -> Bool {
        if initiator.scanConflictLearned { return false }
        guard let info = controllerInfo, info.leStates != 0 else { return true }
        let states = LESupportedStates(rawValue: info.leStates)
        return states.contains(active ? .activeScanningAndInitiating : .passiveScanningAndInitiating)
    }

    func sendScanParameters(_ c: ScanConfiguration) {
        let type: LEScanType = c.active ? .active : .passive
        if usesExtendedCommands(preferred: c.preferExtended) {
            let phy = LESetExtendedScanParameters.PHYParameters(phy: .le1M, scanType: type,
                                                                scanInterval: c.interval, scanWindow: c.window)
            send(LESetExtendedScanParameters(ownAddressType: ownAddressType, scanningFilterPolicy: .basicUnfiltered,
                                             phys: [phy]),
                 purpose: .scanParameters)
        } else {
            send(LESetScanParameters(scanType: type, scanInterval: c.interval, scanWindow: c.window,
                                     ownAddressType: ownAddressType, scanningFilterPolicy: .basicUnfiltered),
                 purpose: .scanParameters)
        }
    }

    func sendScanEnable(_ on: Bool, filterDuplicates: Bool) {
        if initiator.usesExtendedCommands == true {
            send(LESetExtendedScanEnable(enable: on, filterDuplicates: filterDuplicates ? .enabled : .disabled),
                 purpose: .scanEnable(on))
        } else {
            send(LESetScanEnable(scanEnable: on, filterDuplicates: filterDuplicates), purpose: .scanEnable(on))
        }
    }

    func scanParametersAnswered(status: HCIStatus, opcode: HCIOpcode, at now: HostTime) {
        if !status.isSuccess { scanRefused(opcode: opcode, status: status, at: now) }
        scanner.parametersAnswered(success: status.isSuccess)
        runSchedule(at: now)
    }

    func scanEnableAnswered(on: Bool, status: HCIStatus, opcode: HCIOpcode, at now: HostTime) {
        if on {
            if scanner.enableAnswered(success: status.isSuccess) {
                deliver(.scanning(true))
            } else {
                scanRefused(opcode: opcode, status: status, at: now)
            }
        } else {
            if !status.isSuccess { warn("scan disable answered \(status); taking scanning as stopped") }
            scanner.disableAnswered()
            deliver(.scanning(false))
        }
        runSchedule(at: now)
    }

    /// A scan command the controller refused. The application's wish stays: Command Disallowed
    /// while an LE Create Connection is pending means this controller cannot scan while
    /// initiating (Zephyr's link layer, for one), so the scan waits for the attempt to end and
    /// resumes after it; any other refusal is retried after a backoff. Either is said once, not
    /// at every retry.
    private func scanRefused(opcode: HCIOpcode, status: HCIStatus, at now: HostTime) {
        let command = HostError.commandFailed(opcode, status).description
        if status == .commandDisallowed, initiator.pending != nil {
            initiator.scanConflictLearned = true
            scanner.refusedForNow()
            if !scanner.refusalReported {
                scanner.refusalReported = true
                warn("scanning paused: \(command) while LE Create Connection is pending; this controller cannot scan while initiating, so scanning stops during connection attempts and resumes after each")
            }
            return
        }
        let delay = scanner.refused(at: now)
        if !scanner.refusalReported {
            scanner.refusalReported = true
            warn("scanning not started: \(command); trying again in \(delay / 1_000_000_000) s, with a growing interval, until it starts")
        }
    }
}
