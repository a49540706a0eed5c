import Wire

extension HCIHost {
    func handleEvent(_ bytes: ArraySlice<UInt8>, at now: HostTime) {
        let event: HCIEvent
        do {
            event = try HCIEvent.decode(bytes)
        } catch {
            warn("malformed HCI event dropped: \(error)", bytes)
            return
        }
        switch event {
        case let .commandComplete(e):
            commandCompleteReceived(e, at: now)
        case let .commandStatus(e):
            commandStatusReceived(e, at: now)
        case let .numberOfCompletedPackets(e):
            numberOfCompletedPackets(e, at: now)
        case let .disconnectionComplete(e):
            disconnectionComplete(e, at: now)
        case let .hardwareError(e):
            hardwareError(code: e.hardwareCode, at: now)
        case let .dataBufferOverflow(e):
            warn("the controller reports Data Buffer Overflow (\(e.summary)): it dropped data", bytes)
        case let .le(le):
            handleLE(le, at: now)
        case let .encryptionChangeV1(e):
            encryptionEvent(handle: e.connectionHandle, status: e.status, enabled: e.encryptionEnabled.isOn, keySize: nil,
                            at: now)
        case let .encryptionChangeV2(e):
            encryptionEvent(handle: e.connectionHandle, status: e.status, enabled: e.encryptionEnabled.isOn,
                            keySize: e.encryptionKeySize, at: now)
        case let .encryptionKeyRefreshComplete(e):
            encryptionEvent(handle: e.connectionHandle, status: e.status, enabled: true, keySize: nil, at: now)
        case .readRemoteVersionInformationComplete, .leUnknown, .unknown:
            // Nothing the host acts on; vendor events in particular are none of its business.
            break
        }
    }

    private func handleLE(_ le: LEMetaEvent, at now: HostTime) {
        switch le {
        case let .advertisingReport(e):
            for r in e.reports { deliver(.advertisement(reportWithIdentity(Scanner.report(r), at: now))) }
        case let .extendedAdvertisingReport(e):
            // Also during a legacy scan: a controller with the extended feature may report
            // legacy PDUs this way (Bumble's does).
            for r in e.reports {
                if let report = Scanner.report(r) { deliver(.advertisement(reportWithIdentity(report, at: now))) }
            }
        case let .connectionComplete(e):
            connectionComplete(e, at: now)
        case let .enhancedConnectionCompleteV1(e):
            connectionComplete(e.connectionComplete, peerRPA: e.peerResolvablePrivateAddress, at: now)
        case let .enhancedConnectionCompleteV2(e):
            connectionComplete(e.connectionComplete, peerRPA: e.v1.peerResolvablePrivateAddress, at: now)
        case let .connectionUpdateComplete(e):
            guard let c = connections[e.connectionHandle] else { return }
            guard e.status.isSuccess else {
                // The parameters stay as they were; whoever asked learns why only from here.
                warn("LE Connection Update on \(c.link) failed: \(e.status)")
                return
            }
            c.info.interval = e.connectionInterval
            c.info.latency = e.peripheralLatency
            c.info.supervisionTimeout = e.supervisionTimeout
        case let .longTermKeyRequest(e):
            longTermKeyRequested(handle: e.connectionHandle)
        case let .readRemoteFeaturesComplete(e):
            featuresExchanged(handle: e.connectionHandle)
        case .remoteConnectionParameterRequest,
             .dataLengthChange, .directedAdvertisingReport, .phyUpdateComplete, .channelSelectionAlgorithm:
            break
        }
    }

    private func numberOfCompletedPackets(_ e: NumberOfCompletedPacketsEvent, at now: HostTime) {
        for entry in e.entries {
            switch acl.completed(handle: entry.connectionHandle, count: Int(entry.numCompletedPackets)) {
            case .returned:
                break
            case .unknownHandle:
                if entry.numCompletedPackets != 0 {
                    warn("Number Of Completed Packets for handle \(Hex.number(entry.connectionHandle, width: 4)), which has no open link (\(entry.numCompletedPackets) packets), ignored")
                }
            case let .excess(returned, reported):
                warn("Number Of Completed Packets reports \(reported) packets on handle \(Hex.number(entry.connectionHandle, width: 4)) but only \(returned) were in flight; counted \(returned)")
            }
            securityDataSent(handle: entry.connectionHandle, at: now)
        }
    }

    private func disconnectionComplete(_ e: DisconnectionCompleteEvent, at now: HostTime) {
        let handle = e.connectionHandle
        guard e.status.isSuccess else {
            // The disconnection did not happen (§7.7.5): the link stays.
            warn("Disconnection Complete for handle \(Hex.number(handle, width: 4)) with status \(e.status): the connection stays")
            return
        }
        if strayHandles.remove(handle) != nil { return }
        guard let c = connections[handle] else {
            acl.close(handle)
            warn("Disconnection Complete for handle \(Hex.number(handle, width: 4)), which has no link, ignored")
            return
        }
        connectionDown(c, reason: e.reason, at: now, requeueAtOnce: false)
    }
}
