import HostCore
import Sensors
import Wire

extension GatewayController {
    /// What the controller is given besides the configuration: who it is, its BTHome cipher,
    /// where GATT databases are kept, its wall clock, and its waits.
    public struct Options {
        public var gatewayID: String
        public var version: String
        /// BTHome's AES-CCM (Nettle); nil: encrypted BTHome is reported, not decrypted.
        public var cipher: (any BTHomeCipher)?
        /// Where databases of earlier connections are kept; nil: in memory only.
        public var cache: GATTCacheStore?
        /// Seconds since 1970, for the payloads' times.
        public var wallClock: () -> Double
        /// How long placement waits, after one adapter heard a device, for the others to hear it.
        public var placementWindow: HostTime = HostDuration.milliseconds(500)
        /// How long a clean shutdown waits for the links to close.
        public var shutdownTimeout: HostTime = HostDuration.seconds(3)
        /// An unchanged passive value is published again after this long.
        public var passiveRepeat: HostTime = HostDuration.seconds(60)
        /// Serve the Home Assistant Bluetooth proxy (`proxyRequest`): ESPHome's API is on.
        public var servesProxy = false
        /// The adapters' hosts pair (their Security Manager has its crypto and their bonds are
        /// kept): the proxy serves its clients' pair and unpair requests.
        public var proxyPairs = false
        /// Removes a bond's file from the state directory (an unpairing); false when there was none.
        public var forgetBond: ((DeviceAddress) -> Bool)?

        public init(gatewayID: String, version: String, cipher: (any BTHomeCipher)? = nil, cache: GATTCacheStore? = nil,
                    wallClock: @escaping () -> Double) {
            self.gatewayID = gatewayID
            self.version = version
            self.cipher = cipher
            self.cache = cache
            self.wallClock = wallClock
        }
    }
}
