/// The gateway's topic tree (Docs/gateway.md), under `<prefix>/<gateway-id>`:
///
///     rtstack/<gw>/status                       online | offline (retained; the last will)
///     rtstack/<gw>/gateway                      gateway status JSON (retained)
///     rtstack/<gw>/adapter/<adapter>            adapter status JSON (retained)
///     rtstack/<gw>/<device>/state               link state JSON (retained)
///     rtstack/<gw>/<device>/available           online | offline (retained)
///     rtstack/<gw>/<device>/<quantity>          measurement JSON
///     rtstack/<gw>/<device>/issue               a value that did not decode, JSON
///     rtstack/<gw>/<device>/read/<uuid>         command: read a characteristic (subscribed)
///     rtstack/<gw>/<device>/write/<uuid>        command: write a characteristic (subscribed)
///     rtstack/<gw>/<device>/reply               the answer to a command, JSON
///
/// Device and quantity names are single clean levels (`TopicLevel`); the words the tree uses
/// itself are reserved.
public struct GatewayTopics: Sendable, Hashable {
    public let prefix: String
    public let gatewayID: String

    /// Device ids the tree uses for itself.
    public static let reservedDeviceIDs: Set<String> = ["status", "gateway", "adapter"]
    /// Quantity keys the tree uses under a device.
    public static let reservedQuantityKeys: Set<String> = ["state", "available", "issue", "read", "write", "reply"]

    /// `prefix` may have several levels ("home/ble"); `gatewayID` is one clean level.
    public init(prefix: String = "rtstack", gatewayID: String) {
        self.prefix = prefix
        self.gatewayID = gatewayID
    }

    public var base: String { prefix + "/" + gatewayID }

    public var availability: String { base + "/status" }
    public var gatewayStatus: String { base + "/gateway" }
    public func adapter(_ name: String) -> String { base + "/adapter/" + TopicLevel.sanitize(name) }

    public func device(_ id: String) -> String { base + "/" + id }
    public func deviceState(_ id: String) -> String { device(id) + "/state" }
    public func deviceAvailability(_ id: String) -> String { device(id) + "/available" }
    public func quantity(_ id: String, _ key: String) -> String { device(id) + "/" + key }
    public func issue(_ id: String) -> String { device(id) + "/issue" }
    public func reply(_ id: String) -> String { device(id) + "/reply" }
    public func command(_ id: String, _ operation: GatewayCommand.Operation, _ characteristic: String) -> String {
        device(id) + "/" + operation.rawValue + "/" + characteristic
    }

    /// What the gateway subscribes to for commands.
    public var commandFilters: [String] { [base + "/+/read/+", base + "/+/write/+"] }

    /// The device, operation and characteristic a command topic names; nil for any other topic.
    public func parseCommand(_ topic: String) -> (device: String, operation: GatewayCommand.Operation, characteristic: String)? {
        guard topic.hasPrefix(base + "/") else { return nil }
        let levels = topic.dropFirst(base.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 3, let op = GatewayCommand.Operation(rawValue: String(levels[1])),
              !levels[0].isEmpty, !levels[2].isEmpty else { return nil }
        return (String(levels[0]), op, String(levels[2]))
    }
}
