import Wire

extension Host {
    /// Sends the next scan command the scanner asks for (nothing before the controller is
    /// ready, nothing while one is under way).
    func reconcileScanner(at now: HostTime) {
        guard phase == .ready else { return }
        switch scanner.nextAction() {
        case .none, .enable:
            break
        case let .setParameters(c):
            sendScanParameters(c)
        case .disable:
            sendScanEnable(false, filterDuplicates: false)
        }
    }

    private func sendScanParameters(_ c: ScanConfiguration) {
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

    private func sendScanEnable(_ on: Bool, filterDuplicates: Bool) {
        if initiator.usesExtendedCommands == true {
            send(LESetExtendedScanEnable(enable: on, filterDuplicates: filterDuplicates ? .enabled : .disabled),
                 purpose: .scanEnable(on))
        } else {
            send(LESetScanEnable(scanEnable: on, filterDuplicates: filterDuplicates), purpose: .scanEnable(on))
        }
    }

    func scanParametersAnswered(status: HCIStatus, opcode: HCIOpcode, at now: HostTime) {
        if !status.isSuccess {
            warn("scanning not started: \(HostError.commandFailed(opcode, status))")
            scanner.wanted = nil
            // The application asked for a scan and must learn that there is none.
            sink.deliver(.scanning(false))
        }
        if case let .enable(c) = scanner.parametersAnswered(success: status.isSuccess) {
            sendScanEnable(true, filterDuplicates: c.filterDuplicates)
        } else {
            reconcileScanner(at: now)
            pumpInitiator(at: now)
        }
    }

    func scanEnableAnswered(on: Bool, status: HCIStatus, opcode: HCIOpcode, at now: HostTime) {
        if on {
            if scanner.enableAnswered(success: status.isSuccess) {
                sink.deliver(.scanning(true))
            } else if status == .commandDisallowed, initiator.pending != nil {
                // Cannot scan while initiating: wait for the attempt to end.
                initiator.scanConflictLearned = true
                scanner.suspended = true
            } else {
                warn("scanning not started: \(HostError.commandFailed(opcode, status))")
                scanner.wanted = nil
                sink.deliver(.scanning(false))
            }
        } else {
            if !status.isSuccess { warn("scan disable answered \(status); taking scanning as stopped") }
            scanner.disableAnswered()
            sink.deliver(.scanning(false))
        }
        reconcileScanner(at: now)
        pumpInitiator(at: now)
    }
}
