import HostCore
import Wire

/// One adapter as the gateway sees it: its host while it is open, whether it is up, and the
/// connection slots learned for its controller.
final class GatewayAdapter {
    enum Phase: Equatable {
        /// Opened; the controller is being brought up.
        case starting
        case up
        /// Lost or failed (with why); the driver opens it again later.
        case down(String)
    }

    let index: Int
    let name: String
    let backend: AdapterBackend
    var host: (any Host)?
    var phase: Phase = .down("not opened yet")
    var info: ControllerInfo?
    /// Links as central this controller takes at most, once learned: from LE Supported States
    /// (1 when it cannot initiate while central) or from a refusal (Connection Limit Exceeded
    /// 0x09, Memory Capacity Exceeded 0x07) with that many links up.
    var slotLimit: Int?
    /// How the limit was learned, for the adapter status.
    var slotReason: String?
    /// The scan the gateway asked of its host.
    var scanning = false
    /// Whether that scan is active (scan requests) or passive (a proxy client's choice).
    var scanActive = true
    /// The status last published.
    var lastStatus: AdapterStatusReport?

    init(index: Int, name: String, backend: AdapterBackend) {
        self.index = index
        self.name = name
        self.backend = backend
    }

    var isUp: Bool { phase == .up && host != nil }

    /// Forgets what was learned of the controller (it was lost: the next one may differ).
    func reset() {
        host = nil
        info = nil
        slotLimit = nil
        slotReason = nil
        scanning = false
    }
}
