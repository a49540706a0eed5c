import MQTT

/// The broker connection as the gateway's status reports it: whether it is up, the client's
/// counters (the driver keeps them current), and the messages dropped while it was away that
/// no gateway status has reported yet.
struct BrokerStatus {
    var connected = false
    var statistics = MQTTStatistics()
    var droppedToReport: Int?
}
