/// The figures of the gateway's status line (`GatewayController.statusLine`).
public struct GatewayStatusCounts: Equatable, Sendable {
    public var devicesUp = 0
    public var devices = 0
    public var adaptersUp = 0
    public var adapters = 0

    public var text: String {
        "\(devicesUp) of \(devices) devices connected, \(adaptersUp) of \(adapters) adapters up"
    }
}
