import Wire

/// Where an application (the run session, the gateway) finds a peer's database from an earlier
/// run, and keeps a new one; `LinkPlan.cachedDatabase` is how it reaches the link. The Runtime
/// backs it with files in the state directory; nil/ignore keeps everything in memory.
public protocol GATTCacheStore: AnyObject {
    func database(for peer: DeviceAddress) -> GATTDatabase?
    func store(_ database: GATTDatabase, for peer: DeviceAddress)
    func remove(for peer: DeviceAddress)
}
