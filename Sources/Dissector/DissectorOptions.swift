import Wire

/// Choices that change what the dissector shows, set once per capture or monitor run.
public struct DissectorOptions: Sendable {
    /// Show key material (SMP keys and random values, LTKs in HCI commands) instead of
    /// `[redacted]`: a capture shared for debugging should not hand out a device's keys.
    public var showKeys = false
    /// Attribute types per peer for links whose discovery is not in the capture (a GATT cache).
    public var labels = AttributeLabels()
    /// Name the adapter (`hciN`) of every packet: captures of the Linux monitor hold several.
    public var showsAdapter = false
    /// Set `DissectedPacket.peer` of advertising reports too (for a peer filter): making the
    /// address costs an allocation per report, so only when someone looks at it.
    public var resolvesAdvertisers = false

    public init(showKeys: Bool = false, labels: AttributeLabels = AttributeLabels(), showsAdapter: Bool = false,
                resolvesAdvertisers: Bool = false) {
        self.showKeys = showKeys
        self.labels = labels
        self.showsAdapter = showsAdapter
        self.resolvesAdvertisers = resolvesAdvertisers
    }
}

/// Which characteristic or descriptor stands behind each attribute handle of a peer, known
/// from outside the capture (rtstack's GATT cache in the state directory).
public struct AttributeLabels: Sendable {
    private var byPeer: [DeviceAddress: [UInt16: BluetoothUUID]] = [:]

    public init() {}

    public var isEmpty: Bool { byPeer.isEmpty }
    public var peers: [DeviceAddress] { byPeer.keys.sorted { $0.description < $1.description } }

    /// `types`: attribute handle → characteristic UUID (at the value handle) or descriptor UUID.
    public mutating func add(peer: DeviceAddress, types: [UInt16: BluetoothUUID]) {
        byPeer[peer, default: [:]].merge(types) { _, new in new }
    }

    /// The types for `peer`; a peer whose address type the capture does not tell (or tells
    /// differently) matches on the address alone when only one entry has it.
    public func types(for peer: DeviceAddress) -> [UInt16: BluetoothUUID]? {
        if let exact = byPeer[peer] { return exact }
        let same = byPeer.filter { $0.key.address == peer.address }
        return same.count == 1 ? same.first?.value : nil
    }
}
