/// The figures of the gateway's status line (`GatewayController.statusLine`).
public struct GatewayStatusCounts: Equatable, Sendable {
    public var devicesUp = 0
    public var devices = 0
    public var adaptersUp = 0
    public var adapters = 0
    /// Links the Bluetooth proxy's clients asked for; nil when the gateway is no proxy.
    public var proxyLinks: Int?

    public var text: String {
        "\(devicesUp) of \(devices) devices connected, \(adaptersUp) of \(adapters) adapters up"
            + (proxyLinks.map { ", \($0) Bluetooth proxy link\($0 == 1 ? "" : "s")" } ?? "")
    }
}
