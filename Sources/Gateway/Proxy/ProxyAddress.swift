import Wire

/// Addresses as ESPHome's API carries them: the 48-bit device address as an integer, most
/// significant byte first, and the address type as a number of its own (0 public, 1 random:
/// `esp_ble_addr_type_t`, whose first two values are the HCI Peer_Address_Type's).
enum ProxyAddress {
    static func number(_ address: BDAddress) -> UInt64 {
        address.bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func address(_ number: UInt64) -> BDAddress {
        BDAddress(bigEndian: (0..<6).map { UInt8(truncatingIfNeeded: number >> (8 * (5 - $0))) })!
    }

    /// A resolved identity goes out as the kind of address it is.
    static func type(_ type: LEAddressType) -> UInt32 {
        type.isRandom ? 1 : 0
    }

    /// The type a connect request names; nil for a value the API does not define.
    static func type(_ value: UInt32) -> LEAddressType? {
        switch value {
        case 0: return .publicDevice
        case 1: return .randomDevice
        default: return nil
        }
    }
}
