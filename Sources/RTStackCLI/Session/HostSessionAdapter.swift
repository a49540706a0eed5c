import HostCore
import RunTracker
import Wire

/// Lets the run session drive the real host.
final class HostSessionAdapter: SessionHost {
    unowned let host: Host

    init(_ host: Host) { self.host = host }

    func startScan(_ configuration: ScanConfiguration, at now: HostTime) { host.startScan(configuration, at: now) }
    func stopScan(at now: HostTime) { host.stopScan(at: now) }
    func connect(to address: DeviceAddress, plan: LinkPlan, at now: HostTime) -> LinkID {
        host.connect(to: address, plan: plan, at: now)
    }
    func disconnect(_ link: LinkID, at now: HostTime) { host.disconnect(link, at: now) }
}
