/// A 128-bit UUID as the API carries it: two integers, the most significant half first; a
/// UUID of the Bluetooth base (16 and 32-bit UUIDs) can go as one short integer instead.
public struct ProxyUUID: Equatable, Hashable, Sendable {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A 16- or 32-bit UUID on the Bluetooth base UUID 0000xxxx-0000-1000-8000-00805F9B34FB.
    public init(short: UInt32) {
        high = UInt64(short) << 32 | 0x0000_1000
        low = 0x8000_0080_5F9B_34FB
    }

    /// The short form when the UUID is on the Bluetooth base, which API 1.12 clients accept in
    /// place of the two integers.
    public var short: UInt32? {
        guard low == 0x8000_0080_5F9B_34FB, high & 0xFFFF_FFFF == 0x0000_1000 else { return nil }
        return UInt32(high >> 32)
    }
}

public struct ProxyGATTDescriptor: Equatable, Sendable {
    public var uuid: ProxyUUID
    public var handle: UInt16

    public init(uuid: ProxyUUID, handle: UInt16) {
        self.uuid = uuid
        self.handle = handle
    }
}

public struct ProxyGATTCharacteristic: Equatable, Sendable {
    public var uuid: ProxyUUID
    /// The value handle, which reads, writes and notifications name.
    public var handle: UInt16
    /// The characteristic's properties byte (Core Spec Vol 3, Part G, §3.3.1.1).
    public var properties: UInt8
    public var descriptors: [ProxyGATTDescriptor]

    public init(uuid: ProxyUUID, handle: UInt16, properties: UInt8, descriptors: [ProxyGATTDescriptor]) {
        self.uuid = uuid
        self.handle = handle
        self.properties = properties
        self.descriptors = descriptors
    }
}

public struct ProxyGATTService: Equatable, Sendable {
    public var uuid: ProxyUUID
    public var handle: UInt16
    public var characteristics: [ProxyGATTCharacteristic]

    public init(uuid: ProxyUUID, handle: UInt16, characteristics: [ProxyGATTCharacteristic]) {
        self.uuid = uuid
        self.handle = handle
        self.characteristics = characteristics
    }
}

/// One advertising report as the raw-advertisement batch carries it: the advertising data or
/// the scan response, each its own entry, as ESPHome sends them.
public struct ProxyRawAdvertisement: Equatable, Sendable {
    public var address: UInt64
    public var rssi: Int32
    /// 0 public, 1 random (the API's `address_type`).
    public var addressType: UInt32
    public var data: [UInt8]

    public init(address: UInt64, rssi: Int32, addressType: UInt32, data: [UInt8]) {
        self.address = address
        self.rssi = rssi
        self.addressType = addressType
        self.data = data
    }
}
