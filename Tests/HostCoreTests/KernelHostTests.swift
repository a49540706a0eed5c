import Testing
import Timing
import Wire
@testable import HostCore

@Suite struct KernelHostTests {
    static let adapter = BDAddress(string: "00:AA:01:00:00:00") ?? .zero
    static let peerA = DeviceAddress(BDAddress(string: "00:AA:01:01:00:01") ?? .zero, type: .publicDevice)
    static let peerB = DeviceAddress(BDAddress(string: "00:AA:01:02:00:02") ?? .zero, type: .publicDevice)

    private func make(security: KernelSecurityLevel? = nil) -> (KernelHost, FakeKernel) {
        let k = FakeKernel()
        let h = KernelHost(configuration: KernelHostConfiguration(index: 0, security: security))
        k.host = h
        return (h, k)
    }

    @Test func bringUpPowersTheAdapterOnThroughManagement() {
        let (h, k) = make()
        h.start(at: k.now)
        #expect(k.commands == [.readControllerInformation(index: 0)])
        k.complete(.success, k.info([]))  // LE off, powered off
        #expect(k.commands.last == .setLowEnergy(true, index: 0))
        k.complete(.success, [0x00, 0x02, 0, 0])
        #expect(k.commands.last == .setPowered(true, index: 0))
        #expect(!h.isReady)
        k.complete(.success, [0x01, 0x02, 0, 0])
        #expect(h.isReady)
        #expect(h.poweredOnByHost)
        #expect(h.adapterAddress == Self.adapter)
        guard case .controllerReady(let info)? = k.events.last else { Issue.record("\(k.events)"); return }
        #expect(info.publicAddress == Self.adapter)
        #expect(h.restoringCommands == [.setPowered(false, index: 0)])
    }

    @Test func anAdapterAlreadyUpIsUsedAsIs() {
        let (h, k) = make()
        h.start(at: k.now)
        k.complete(.success, k.info([.powered, .lowEnergy]))
        #expect(h.isReady)
        #expect(k.commands.count == 1)
        #expect(!h.poweredOnByHost)
        #expect(h.restoringCommands.isEmpty)
    }

    @Test func permissionDeniedNamesTheCapability() {
        let (h, k) = make()
        h.start(at: k.now)
        k.complete(.success, k.info([.lowEnergy]))
        k.emit(.commandStatus(.setPowered, .permissionDenied))
        #expect(!h.isReady)
        guard case .controllerFailed(let e)? = k.events.last else { Issue.record("\(k.events)"); return }
        // A cause the CLI can advise on (the capability), not advice inside the core.
        #expect(e == .adapter("hci0", .permissionDenied(.setPowered)))
        #expect(e.description.contains("Set Powered failed: Permission Denied"))
    }

    @Test func powerFailureAndSilenceAreReported() {
        let (h, k) = make()
        h.start(at: k.now)
        k.complete(.success, k.info([.lowEnergy]))
        k.complete(.rfKilled)
        guard case .controllerFailed(let e)? = k.events.last else { Issue.record("\(k.events)"); return }
        #expect(e == .adapter("hci0", .rfkillBlocked))

        let (h2, k2) = make()
        h2.start(at: k2.now)
        #expect(h2.nextDeadline == k2.now + HostDuration.seconds(5))
        h2.advanceTime(to: k2.now + HostDuration.seconds(5))
        guard case .controllerFailed(let e2)? = k2.events.last else { Issue.record("\(k2.events)"); return }
        #expect(e2.description.contains("no answer"))
    }

    @Test func scanningRunsDiscoveryAndRestartsItWhenTheKernelEndsIt() {
        let (h, k) = make()
        k.bringUp()
        h.startScan(at: k.now)
        #expect(k.commands.last == .startDiscovery(.lowEnergy, index: 0))
        k.complete(.success, [0x06])
        k.emit(.discovering(.lowEnergy, true))
        // A Device Found becomes an advertisement report with the EIR data as AD.
        let eir: [UInt8] = [0x03, 0x03, 0x0D, 0x18]
        k.emit(.deviceFound(ManagementDeviceFound(address: Self.peerA.address, addressType: 1, rssi: -50, flags: [],
                                                  eirData: eir[...])))
        guard case .advertisement(let r)? = k.events.last else { Issue.record("\(k.events)"); return }
        #expect(r.address == Self.peerA)
        #expect(r.rssi == -50)
        #expect(r.connectable)
        #expect(Array(r.data) == eir)
        // BR/EDR devices are not reported.
        let before = k.events.count
        k.emit(.deviceFound(ManagementDeviceFound(address: Self.peerA.address, addressType: 0, rssi: -50, flags: [],
                                                  eirData: [])))
        #expect(k.events.count == before)
        // Discovery timed out in the kernel: started again.
        let sent = k.commands.count
        k.emit(.discovering(.lowEnergy, false))
        #expect(k.commands.count == sent + 1)
        #expect(k.commands.last == .startDiscovery(.lowEnergy, index: 0))
        k.complete(.success, [0x06])
        h.stopScan(at: k.now)
        #expect(k.commands.last == .stopDiscovery(.lowEnergy, index: 0))
        k.complete(.success, [0x06])
        #expect(!h.isScanning)
    }

    private func heartRateFound() -> ManagementEvent.Payload {
        .deviceFound(ManagementDeviceFound(address: Self.peerA.address, addressType: 1, rssi: -50, flags: [],
                                           eirData: [0x03, 0x03, 0x0D, 0x18]))
    }

    @Test func aRunningDiscoveryIsCycledSoTheControllerReportsDevicesAgain() {
        let (h, k) = make()
        k.bringUp()
        h.startScan(at: k.now)
        k.complete(.success, [0x06])
        let started = k.now
        k.now = started + HostDuration.milliseconds(20)
        k.emit(heartRateFound())
        #expect(h.nextDeadline == started + HostDuration.seconds(4))
        k.now = started + HostDuration.seconds(4)
        h.advanceTime(to: k.now)
        #expect(k.commands.last == .stopDiscovery(.lowEnergy, index: 0))
        k.complete(.success, [0x06])
        #expect(k.commands.last == .startDiscovery(.lowEnergy, index: 0))
        k.complete(.success, [0x06])
        #expect(h.isScanning)
        // Not cycled once scanning is no longer wanted.
        h.stopScan(at: k.now)
        k.complete(.success, [0x06])
        #expect(h.nextDeadline == nil)
    }

    /// Issue 17 §5: the kernel drops the advertising reports it processes before its discovery
    /// state is "finding"; btvirt reports every advertiser within a millisecond of LE Set Scan
    /// Enable, so a start can lose all of them, and the controller's duplicate filter repeats none.
    /// A start that reported nothing is cycled after 1 s, not 4 s; once one reports, the 4 s cycle
    /// applies again.
    @Test func aDiscoveryStartThatReportsNothingIsCycledAfterOneSecond() {
        let (h, k) = make()
        k.bringUp()
        h.startScan(at: k.now)
        k.complete(.success, [0x06])
        k.emit(.discovering(.lowEnergy, true))
        let started = k.now
        #expect(h.nextDeadline == started + HostDuration.seconds(1))
        k.now = started + HostDuration.seconds(1)
        h.advanceTime(to: k.now)
        #expect(k.commands.last == .stopDiscovery(.lowEnergy, index: 0))
        k.complete(.success, [0x06])
        k.emit(.discovering(.lowEnergy, false))
        #expect(k.commands.last == .startDiscovery(.lowEnergy, index: 0))
        k.complete(.success, [0x06])
        k.emit(.discovering(.lowEnergy, true))
        let again = k.now
        k.now = again + HostDuration.milliseconds(5)
        k.emit(heartRateFound())
        guard case .advertisement(let r)? = k.events.last else { Issue.record("\(k.events)"); return }
        #expect(r.address == Self.peerA)
        #expect(h.nextDeadline == again + HostDuration.seconds(4))
    }

    /// Where nothing advertises, the early cycle stops after ten quiet starts in a row.
    @Test func quietStartsAreCycledEarlyTenTimesThenEveryFourSeconds() {
        let (h, k) = make()
        k.bringUp()
        h.startScan(at: k.now)
        k.complete(.success, [0x06])
        var cycles: [UInt64] = []
        for _ in 0..<12 {
            let started = k.now
            guard let d = h.nextDeadline else { Issue.record("no cycle deadline"); return }
            cycles.append((d - started) / 1_000_000_000)
            k.now = d
            h.advanceTime(to: d)
            #expect(k.commands.last == .stopDiscovery(.lowEnergy, index: 0))
            k.complete(.success, [0x06])
            #expect(k.commands.last == .startDiscovery(.lowEnergy, index: 0))
            k.complete(.success, [0x06])
        }
        #expect(cycles == Array(repeating: 1, count: 10) + [4, 4])
    }

    /// The VM test saw the session's Stop Discovery and then the closing one, answered Rejected.
    @Test func aStopDiscoveryAlreadySentIsNotRepeatedWhenClosing() {
        let (h, k) = make()
        k.bringUp()
        h.startScan(at: k.now)
        k.complete(.success, [0x06])
        #expect(h.restoringCommands == [.stopDiscovery(.lowEnergy, index: 0), .setPowered(false, index: 0)])
        h.stopScan(at: k.now)
        #expect(k.commands.last == .stopDiscovery(.lowEnergy, index: 0))
        #expect(h.restoringCommands == [.setPowered(false, index: 0)])
    }

    @Test func busyDiscoveryIsRetriedLater() {
        let (h, k) = make()
        k.bringUp()
        h.startScan(at: k.now)
        k.complete(.busy, [0x06])
        let count = k.commands.count
        guard let d = h.nextDeadline else { Issue.record("no retry deadline"); return }
        #expect(d == k.now + HostDuration.milliseconds(500))
        k.now = d
        h.advanceTime(to: d)
        #expect(k.commands.count == count + 1)
        #expect(k.commands.last == .startDiscovery(.lowEnergy, index: 0))
    }

    @Test func linksConnectOneAtATimeOverKernelSocketsAndRunGATT() {
        let (h, k) = make(security: .medium)
        k.bringUp()
        var plan = LinkPlan()
        plan.subscriptions = [Subscription(characteristic: BluetoothUUID(0x2A37))]
        let a = h.connect(to: Self.peerA, plan: plan, at: k.now)
        let b = h.connect(to: Self.peerB, plan: plan, at: k.now)
        #expect(k.opened.count == 1)
        #expect(k.opened.first?.1 == Self.peerA)
        #expect(k.opened.first?.2 == Self.adapter)
        #expect(k.opened.first?.3 == .medium)
        #expect(h.state(of: b) == .queued)
        k.connectSocket(a)
        #expect(h.state(of: a) == .ready)
        #expect(k.opened.count == 2)
        #expect(k.opened.last?.1 == Self.peerB)
        k.connectSocket(b, mtu: 100)
        #expect(h.state(of: b) == .ready)
        // The ATT MTU stays within the kernel's L2CAP MTU.
        // (Core Spec v5.4 Vol 3, Part F, §3.4.2.1: Exchange MTU Request = 0x02, Client Rx MTU.)
        #expect(k.servers[b]?.received.first { $0.first == 0x02 } == [0x02, 100, 0])
        #expect(k.servers[a]?.received.first { $0.first == 0x02 } == [0x02, 247, 0])
        // Notifications reach the application.
        k.servers[a]?.notify(handle: 0x000E, value: [0x00, 0x48])
        k.pump()
        guard case let .notification(link, handle, value)? = k.events.last else { Issue.record("\(k.events.last as Any)"); return }
        #expect(link == a)
        #expect(handle == 0x000E)
        #expect(Array(value) == [0x00, 0x48])
        // Disconnect closes the socket and reports at once.
        h.disconnect(a, at: k.now)
        #expect(k.closed == [a])
        guard case let .disconnected(l, reason, again)? = k.events.dropLast().last else { Issue.record("\(k.events)"); return }
        #expect(l == a)
        #expect(reason == .connectionTerminatedByLocalHost)
        #expect(!again)
        #expect(h.state(of: a) == .disconnected)
    }

    @Test func discoveryPausesWhileALinkConnects() {
        let (h, k) = make()
        k.bringUp()
        h.startScan(at: k.now)
        k.complete(.success, [0x06])
        let a = h.connect(to: Self.peerA, at: k.now)
        #expect(k.commands.last == .stopDiscovery(.lowEnergy, index: 0))
        #expect(k.opened.isEmpty)
        k.complete(.success, [0x06])
        #expect(k.opened.count == 1)
        k.connectSocket(a)
        #expect(k.commands.last == .startDiscovery(.lowEnergy, index: 0))
    }

    @Test func connectFailureAndTimeoutAndReconnect() {
        let (h, k) = make()
        k.bringUp()
        var plan = LinkPlan()
        plan.reconnect = Backoff.linkReconnect
        plan.connectTimeout = HostDuration.seconds(2)
        let a = h.connect(to: Self.peerA, plan: plan, at: k.now)
        h.channelFailed(a, error: .controller("connect to \(Self.peerA) failed: Connection refused (ECONNREFUSED)"), at: k.now)
        guard case let .connectFailed(l, e, retry)? = k.events.dropLast().last else { Issue.record("\(k.events)"); return }
        #expect(l == a && retry)
        #expect(e.description.contains("ECONNREFUSED"))
        #expect(h.state(of: a) == .waitingToReconnect)
        // Backoff, then a second attempt that times out in the host.
        guard let r = h.nextDeadline else { Issue.record("no backoff"); return }
        k.now = r
        h.advanceTime(to: r)
        #expect(k.opened.count == 2)
        k.now = r + HostDuration.seconds(2)
        h.advanceTime(to: k.now)
        #expect(k.closed == [a])
        #expect(k.events.contains { if case .connectFailed(_, .connectTimeout, true) = $0 { return true } else { return false } })
        // Connected, then the peer drops: reconnect follows.
        k.now = h.nextDeadline ?? k.now
        h.advanceTime(to: k.now)
        k.connectSocket(a)
        #expect(h.state(of: a) == .ready)
        h.channelClosed(a, reason: .remoteUserTerminatedConnection, at: k.now)
        #expect(h.state(of: a) == .waitingToReconnect)
        #expect(k.events.contains { if case .disconnected(a, .remoteUserTerminatedConnection, true) = $0 { return true } else { return false } })
    }

    /// A streaming link on an adapter that was up when the host found it.
    private func streaming() -> (KernelHost, FakeKernel, LinkID) {
        let (h, k) = make()
        h.start(at: k.now)
        k.complete(.success, k.info([.powered, .lowEnergy]))
        var plan = LinkPlan()
        plan.reconnect = Backoff.linkReconnect
        let a = h.connect(to: Self.peerA, plan: plan, at: k.now)
        k.connectSocket(a)
        #expect(h.state(of: a) == .ready)
        return (h, k, a)
    }

    @Test func anAdapterPoweredOffAndOnAgainResumesItsLinks() {
        let (h, k, a) = streaming()
        k.clearEvents()
        k.emit(.newSettings([.lowEnergy]))
        // Down, queued again at once (no backoff), waiting for the adapter: not failed.
        #expect(k.closed == [a])
        #expect(h.state(of: a) == .queued)
        #expect(!h.hasFailed)
        #expect(!k.events.contains { if case .controllerFailed = $0 { return true } else { return false } })
        #expect(k.events.contains { if case .disconnected(a, _, true) = $0 { return true } else { return false } })
        #expect(k.events.contains { if case .warning(let w) = $0 { return w.message.contains("powered off") } else { return false } })
        // Nothing is tried while it is away: no Start Discovery retried on Not Powered.
        let before = k.commands.count
        k.now += HostDuration.seconds(3)
        h.advanceTime(to: k.now)
        #expect(k.commands.count == before)
        #expect(k.opened.count == 1)
        // Powered again by someone else: bring-up reads it afresh, and the link reconnects.
        k.emit(.newSettings([.powered, .lowEnergy]))
        #expect(k.commands.last == .readControllerInformation(index: 0))
        k.complete(.success, k.info([.powered, .lowEnergy]))
        #expect(h.isReady)
        #expect(k.opened.count == 2)
        k.connectSocket(a)
        #expect(h.state(of: a) == .ready)
    }

    @Test func anAdapterTheHostPoweredIsPoweredAgainOnceRFKillLetsIt() {
        let (h, k) = make()
        k.bringUp()  // powered on by the host
        #expect(h.poweredOnByHost)
        k.emit(.newSettings([.lowEnergy]))
        #expect(!h.isReady)
        // Set Powered every 2 s: refused while rfkill blocks, taken once unblocked.
        k.now += HostDuration.seconds(2)
        h.advanceTime(to: k.now)
        #expect(k.commands.last == .setPowered(true, index: 0))
        k.complete(.rfKilled)
        #expect(!h.hasFailed)
        k.now += HostDuration.seconds(2)
        h.advanceTime(to: k.now)
        #expect(k.commands.last == .setPowered(true, index: 0))
        k.complete(.success, [0x01, 0x02, 0, 0])
        #expect(k.commands.last == .readControllerInformation(index: 0))
        k.complete(.success, k.info([.powered, .lowEnergy]))
        #expect(h.isReady)
        #expect(k.events.filter { if case .controllerReady = $0 { return true } else { return false } }.count == 2)
    }

    @Test func anAdapterRemovedAndNotBackEndsAfterTheWait() {
        let (h, k, a) = streaming()
        k.emit(.indexRemoved)
        #expect(k.closed == [a])
        #expect(h.state(of: a) == .queued)
        #expect(!h.hasFailed)
        guard let wait = h.nextDeadline else { Issue.record("no deadline while waiting for the adapter"); return }
        #expect(wait == k.now + h.configuration.adapterReturnTimeout)
        k.now = wait
        h.advanceTime(to: k.now)
        #expect(h.hasFailed)
        guard case .controllerFailed(let e)? = k.events.last else { Issue.record("\(k.events)"); return }
        #expect(e == .adapter("hci0", .removed))
    }

    @Test func anAdapterRemovedAndAddedAgainIsBroughtUpAgain() {
        let (h, k, a) = streaming()
        k.emit(.indexRemoved)
        k.emit(.indexAdded)
        #expect(k.commands.last == .readControllerInformation(index: 0))
        k.complete(.success, k.info([.powered, .lowEnergy]))
        #expect(h.isReady)
        k.connectSocket(a)
        #expect(h.state(of: a) == .ready)
    }

    @Test func malformedAndForeignEventsAreHarmless() {
        let (h, k) = make()
        k.bringUp()
        let count = k.events.count
        h.receiveManagement([0x12, 0x00, 0x00], at: k.now)
        guard case .warning? = k.events.last else { Issue.record("\(k.events)"); return }
        #expect(k.events.count == count + 1)
        // Another adapter's events are not ours.
        k.emit(.indexRemoved, index: 1)
        #expect(h.isReady)
        // An answer to a command not in flight is ignored.
        k.emit(.commandComplete(.setPowered, .failed, returnParameters: []))
        #expect(h.isReady)
    }
}
