import HostCore
import Sensors
import Wire

/// One device the gateway keeps: found by its entry, placed on an adapter, its link followed,
/// its values published. Lives on the gateway's loop thread.
final class GatewayDevice {
    /// Where its link is.
    enum Placement: Equatable {
        /// Not on an adapter: not heard yet, between adapters, or given up for now.
        case unplaced
        /// Its link lives on this adapter's host.
        case linked(adapter: Int, link: LinkID)
        /// Every adapter that could take it is full (or none is up).
        case waitingForSlot
        /// Advertisements only (`connect: false`, passive formats).
        case passive
    }

    /// The topic level.
    let id: String
    /// Index of its entry in the gateway's list.
    var entry: Int
    var address: DeviceAddress?
    /// An address entry without a type: matched on either, connected with the type heard.
    let fixedAddress: BDAddress?
    var advertisedName: String?
    /// For a role: which kind of sensor it is.
    var profile: SensorProfile?
    var placement: Placement = .unplaced
    /// Per adapter: the last RSSI heard and when.
    var sightings: [Int: (rssi: Int8, at: HostTime)] = [:]
    /// When it was first heard since it needed an adapter: placement waits a moment for the
    /// other adapters to hear it too, then takes the best.
    var heardSince: HostTime?
    /// Adapters that refused it a slot since it was last placed.
    var refusedBy: Set<Int> = []
    var linkState: LinkState?
    /// Why it is in its state (a disconnection, a refused slot).
    var reason: String?
    var database: GATTDatabase?
    /// Value handles → characteristics, for the notifications (small: a linear scan).
    var characteristics: [(handle: UInt16, uuid: BluetoothUUID)] = []
    /// Value handles the gateway itself registered with `.subscribe` (`subscribesToAll`).
    var registered: Set<UInt16> = []
    /// Value handles registered for the control clients (one registration for all of them).
    var controlRegistered: Set<UInt16> = []
    /// Per quantity: its topics, found by a linear scan of the device's few keys (ten at most
    /// for the profiles the gateway decodes): every quantity of every notification is looked
    /// up, and comparing keys (small strings, most of them) costs less than hashing one.
    var quantityTopics: [QuantityTopics] = []

    struct QuantityTopics {
        /// The quantity's key (`SensorQuantity.key`).
        let key: String
        /// Where its values go, made once.
        let value: String
        /// Its Home Assistant config's topic, once that config is published (nil again when
        /// it must be published again: a new broker connection).
        var discovery: String?
    }

    func quantityTopicsIndex(_ key: String) -> Int? {
        for (i, t) in quantityTopics.enumerated() where t.key == key { return i }
        return nil
    }

    /// The Home Assistant config topics published, by quantity key.
    var discoveryTopics: [(key: String, topic: String)] {
        quantityTopics.compactMap { t in t.discovery.map { (t.key, $0) } }
    }
    /// Last passive value published per key, and when: an unchanged value goes out again only
    /// after a while.
    var lastPassive: [String: (value: QuantityValue, at: HostTime)] = [:]
    var cscRates: CSCRates?
    /// The last state published, so that only changes go out.
    var lastState: DeviceStateReport?
    var lastAvailable: Bool?
    /// Being shut down or removed by a reload: not placed again.
    var retiring = false

    init(id: String, entry: Int, address: DeviceAddress?, fixedAddress: BDAddress?) {
        self.id = id
        self.entry = entry
        self.address = address
        self.fixedAddress = fixedAddress
    }

    var adapter: Int? {
        if case .linked(let a, _) = placement { return a }
        return nil
    }

    var link: LinkID? {
        if case .linked(_, let l) = placement { return l }
        return nil
    }

    /// Whether it waits for an adapter.
    var needsPlacement: Bool {
        switch placement {
        case .unplaced, .waitingForSlot: return !retiring
        case .linked, .passive: return false
        }
    }

    /// Whether its link holds (or is about to hold) a connection of its adapter.
    var isUp: Bool {
        guard case .linked = placement, let s = linkState else { return false }
        switch s {
        case .connected, .mtu, .discovering, .subscribing, .ready: return true
        default: return false
        }
    }

    func characteristic(valueHandle: UInt16) -> BluetoothUUID? {
        for c in characteristics where c.handle == valueHandle { return c.uuid }
        return nil
    }

    func remember(_ uuid: BluetoothUUID, valueHandle: UInt16) {
        if characteristic(valueHandle: valueHandle) == nil { characteristics.append((valueHandle, uuid)) }
    }

    /// The name shown: the advertised one, else the id.
    var displayName: String { advertisedName ?? id }
}
