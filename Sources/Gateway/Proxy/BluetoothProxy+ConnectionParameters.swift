import ESPHomeAPI
import HostCore
import Wire

/// A client's connection parameters for its link (`bluetooth_device_set_connection_params`):
/// the link's host is asked for an LE Connection Update (Core Spec Vol 4, Part E, §7.8.18).
extension BluetoothProxy {
    /// Answered as soon as the host has queued the command, not at LE Connection Update
    /// Complete: that is when ESPHome answers (its response carries what
    /// `esp_ble_gap_update_conn_params` returned, which only hands the request to the BLE
    /// task), and Home Assistant's client waits for no later word. The outcome reaches the link
    /// (its `ConnectionInfo`) and the log (a controller's refusal is the host's warning).
    ///
    /// Values outside the link layer's ranges are refused here with `ESP_ERR_INVALID_ARG` and
    /// a log line naming the value, before any controller sees them (the API's fields are 32
    /// bits wide, the link layer's 16).
    func setConnectionParameters(_ address: UInt64, _ values: [UInt32], client: Int, in env: ProxyEnvironment, at now: HostTime) {
        let peer = ProxyAddress.address(address)
        guard let l = links[address], l.client == client, l.announced, !l.disconnecting, let host = env.host(l.adapter) else {
            note(.warning, "\(peer): connection parameters asked by client \(client), which has no connected link to it")
            send(client, .connectionParameters(address: address, error: ProxyErrorCode.notConnected))
            return
        }
        let names = ["interval min", "interval max", "latency", "supervision timeout"]
        if let i = values.firstIndex(where: { $0 > UInt32(UInt16.max) }) {
            return refuse(address, client: client, "\(names[i]) \(values[i]) does not fit the link layer's 16 bits")
        }
        let parameters = ConnectionParameters(intervalMin: UInt16(values[0]), intervalMax: UInt16(values[1]),
                                              latency: UInt16(values[2]), supervisionTimeout: UInt16(values[3]))
        do throws(ConnectionUpdateRefusal) {
            try host.updateConnection(l.link, to: parameters, at: now)
        } catch .invalidParameters(let problem) {
            return refuse(address, client: client, problem)
        } catch .notConnected {
            send(client, .connectionParameters(address: address, error: ProxyErrorCode.notConnected))
            return
        } catch {
            note(.warning, "\(l.peer): \(error)")
            send(client, .connectionParameters(address: address, error: ProxyErrorCode.notSupported))
            return
        }
        note(.info, "\(l.peer): connection parameters for client \(client): interval \(parameters.intervalMin)–\(parameters.intervalMax)"
             + " (×1.25 ms), latency \(parameters.latency), supervision timeout \(parameters.supervisionTimeout) (×10 ms)")
        send(client, .connectionParameters(address: address, error: 0))
    }

    private func refuse(_ address: UInt64, client: Int, _ problem: String) {
        note(.warning, "\(ProxyAddress.address(address)): connection parameters of client \(client) refused: \(problem)")
        send(client, .connectionParameters(address: address, error: ProxyErrorCode.invalidArgument))
    }
}
