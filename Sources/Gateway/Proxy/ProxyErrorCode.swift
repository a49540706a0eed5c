import HostCore
import Wire

/// The numbers ESPHome puts in the `error` fields, which Home Assistant's client turns into
/// text: ATT error codes as they are (ESP-IDF's `esp_gatt_status_t` keeps them), HCI reasons for
/// a link that ended or never came up, and ESP-IDF's own codes beyond those.
enum ProxyErrorCode {
    /// ESPHome's `ESP_GATT_NOT_CONNECTED`: a request for an address with no connected link.
    static let notConnected: Int32 = -1
    /// `ESP_GATT_ERROR`: a failure that is no ATT error (a timeout, the link lost meanwhile).
    static let gattError: Int32 = 0x85
    /// `ESP_GATT_ALREADY_OPEN`: the peer's link belongs to another client or to the gateway.
    static let alreadyOpen: Int32 = 0x91
    /// `ESP_ERR_NOT_SUPPORTED`: a request this proxy does not serve (its feature flag is off).
    static let notSupported: Int32 = 0x106
    /// `ESP_GATT_CONN_FAIL_ESTABLISH`: the peer did not answer the connection in time.
    static let failedToEstablish: Int32 = 0x3E
    /// `ESP_GATT_CONN_TERMINATE_LOCAL_HOST`: the adapter carrying the link was lost.
    static let localHost: Int32 = 0x16
    /// `ESP_ERR_NOT_FOUND`: an unpairing with no bond to remove.
    static let notFound: Int32 = 0x105

    /// What a failed GATT operation is reported as.
    static func gatt(_ error: HostError) -> Int32 {
        switch error {
        case let .att(code, _, _): return Int32(code)
        case .invalidState: return notConnected
        default: return gattError
        }
    }

    /// What a pairing that failed is reported as: the SMP Pairing Failed reason (Vol 3, Part H,
    /// §3.5.5) the peer sent or rtstack sent it, the HCI status of an encryption the controller
    /// refused, else `ESP_GATT_ERROR` (a timeout, the link lost, nothing able to pair).
    static func pairing(_ failure: SecurityFailure) -> Int32 {
        switch failure {
        case .pairing(.peerFailed(let reason)): return Int32(reason.rawValue)
        case .pairing(.encryptionFailed(let status)), .encryption(let status): return Int32(status.rawValue)
        case .pairing(let e): return e.sentReason.map { Int32($0.rawValue) } ?? gattError
        default: return gattError
        }
    }

    /// What a connection attempt that failed is reported as.
    static func connection(_ error: HostError) -> Int32 {
        switch error {
        case let .connectionFailed(status), let .commandFailed(_, status), let .disconnected(status):
            return Int32(status.rawValue)
        case .connectTimeout:
            return failedToEstablish
        default:
            return gattError
        }
    }
}
