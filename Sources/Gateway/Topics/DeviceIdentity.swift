/// Who a device is in topics and in Home Assistant: its topic level, its name, its address and
/// what it is.
public struct DeviceIdentity: Sendable, Hashable {
    /// The topic level (`heart`, or `c10000000001` from the address).
    public var id: String
    /// The name shown ("Heart 1"); the advertised name or the configured one.
    public var name: String
    /// "C1:00:00:00:00:01" (without the address type).
    public var address: String
    /// What it is ("Heart Rate Sensor", "BTHome", "iBeacon").
    public var model: String?
    public var manufacturer: String?

    public init(id: String, name: String, address: String, model: String? = nil, manufacturer: String? = nil) {
        self.id = id
        self.name = name
        self.address = address
        self.model = model
        self.manufacturer = manufacturer
    }

    /// A device known only by its address: id from the address, named after it.
    public init(address: String, name: String? = nil, model: String? = nil) {
        let bare = String(address.prefix { $0 != "/" })
        self.init(id: TopicLevel.fromAddress(bare), name: name ?? bare, address: bare, model: model)
    }
}
