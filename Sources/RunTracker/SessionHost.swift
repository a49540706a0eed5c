import HostCore
import Wire

/// What the session needs from the host core. `Host` conforms; tests use a scripted fake, so
/// the session logic is checked without a controller.
public protocol SessionHost: AnyObject {
    func startScan(_ configuration: ScanConfiguration, at now: HostTime)
    func stopScan(at now: HostTime)
    func connect(to address: DeviceAddress, plan: LinkPlan, at now: HostTime) -> LinkID
    func disconnect(_ link: LinkID, at now: HostTime)
}

/// Where the session finds a peer's database from an earlier run, and keeps a new one. The
/// Runtime backs it with files in the state directory; nil/ignore keeps everything in memory.
public protocol GATTCacheStore: AnyObject {
    func database(for peer: DeviceAddress) -> GATTDatabase?
    func store(_ database: GATTDatabase, for peer: DeviceAddress)
    func remove(for peer: DeviceAddress)
}
