extension AdvertisingData {
    /// Legacy advertising PDUs carry at most 31 octets of advertising data
    /// (Core Spec v5.4 Vol 6, Part B, §2.3.1.1).
    public static let legacyMaximumLength = 31

    /// Extended advertising data may reach 1650 octets across fragments
    /// (Core Spec v5.4 Vol 4, Part E, §7.8.54).
    public static let extendedMaximumLength = 1650

    /// Builds advertising data for the test world and tests: each call appends one or more AD
    /// structures in call order.
    ///
    ///     let adv = AdvertisingData.Builder()
    ///         .flags(.generalDiscoverableLEOnly)
    ///         .serviceUUIDs([.heartRate])
    ///         .completeLocalName("HRM")
    ///         .build()
    public struct Builder: Sendable {
        public private(set) var structures: [ADStructure] = []

        public init() {}

        /// Appends a structure as is.
        public mutating func append(_ structure: ADStructure) { structures.append(structure) }

        /// Appends the structure that carries `value`.
        public mutating func append(_ value: ADValue) { structures.append(ADStructure(value)) }

        public func adding(_ value: ADValue) -> Builder {
            var b = self
            b.append(value)
            return b
        }

        public func raw(_ type: ADType, _ data: [UInt8]) -> Builder {
            var b = self
            b.append(ADStructure(type: type, data: data))
            return b
        }

        public func flags(_ flags: ADFlags) -> Builder { adding(.flags(flags)) }

        /// One list per width present (16-bit, then 32-bit, then 128-bit), each UUID in its
        /// narrowest width, the order within a width kept.
        public func serviceUUIDs(_ uuids: [BluetoothUUID], complete: Bool = true) -> Builder {
            var b = self
            for width in BluetoothUUID.Width.allCases {
                let group = uuids.filter { $0.shortestWidth == width }
                if !group.isEmpty { b.append(.serviceUUIDs(ServiceUUIDList(group, width: width, complete: complete))) }
            }
            return b
        }

        public func solicitedServiceUUIDs(_ uuids: [BluetoothUUID]) -> Builder {
            var b = self
            for width in BluetoothUUID.Width.allCases {
                let group = uuids.filter { $0.shortestWidth == width }
                if !group.isEmpty { b.append(.serviceUUIDs(ServiceUUIDList(soliciting: group, width: width))) }
            }
            return b
        }

        public func completeLocalName(_ name: String) -> Builder { adding(.localName(ADLocalName(name, isComplete: true))) }

        public func shortenedLocalName(_ name: String) -> Builder { adding(.localName(ADLocalName(name, isComplete: false))) }

        public func txPowerLevel(_ dBm: Int8) -> Builder { adding(.txPowerLevel(dBm)) }

        public func appearance(_ appearance: Appearance) -> Builder { adding(.appearance(appearance)) }

        public func serviceData(_ uuid: BluetoothUUID, _ data: [UInt8]) -> Builder {
            adding(.serviceData(ADServiceData(uuid: uuid, data: data)))
        }

        public func manufacturerData(_ company: CompanyIdentifier, _ data: [UInt8]) -> Builder {
            adding(.manufacturerSpecificData(ADManufacturerData(company: company, data: data)))
        }

        public func peripheralConnectionIntervalRange(minimum: UInt16, maximum: UInt16) -> Builder {
            adding(.peripheralConnectionIntervalRange(ConnectionIntervalRange(minimum: minimum, maximum: maximum)))
        }

        public func uri(_ text: String) -> Builder { adding(.uri(ADURI(text))) }

        public func leRole(_ role: ADLERole) -> Builder { adding(.leRole(role)) }

        public func advertisingInterval(units: UInt16) -> Builder {
            adding(.advertisingInterval(AdvertisingInterval(units: UInt32(units), byteCount: 2)))
        }

        public func leBluetoothDeviceAddress(_ address: DeviceAddress) -> Builder {
            adding(.leBluetoothDeviceAddress(address))
        }

        /// Zero octets up to `length` (a no-op when already that long), as controllers pad
        /// a legacy PDU's 31 octets.
        public func padded(to length: Int = AdvertisingData.legacyMaximumLength) -> PaddedBytes {
            PaddedBytes(bytes: bytes, length: length)
        }

        /// The encoded octets.
        public var bytes: [UInt8] {
            var w = ByteWriter(capacity: structures.reduce(0) { $0 + $1.encodedCount })
            for s in structures { s.encode(into: &w) }
            return w.bytes
        }

        /// Octets the structures take.
        public var count: Int { structures.reduce(0) { $0 + $1.encodedCount } }

        /// Whether the result fits a legacy advertising or scan response PDU.
        public var fitsLegacyPDU: Bool { count <= AdvertisingData.legacyMaximumLength }

        public func build() -> AdvertisingData { AdvertisingData(bytes) }
    }

    /// Encoded advertising data with zero padding after it.
    public struct PaddedBytes: Sendable {
        public let bytes: [UInt8]

        init(bytes: [UInt8], length: Int) {
            var b = bytes
            if b.count < length { b.append(contentsOf: repeatElement(0, count: length - b.count)) }
            self.bytes = b
        }

        public func build() -> AdvertisingData { AdvertisingData(bytes) }
    }

    /// The encoded octets of the structures, re-encoded (equal to `bytes` for the significant
    /// part when nothing overran).
    public var encodedStructures: [UInt8] {
        var w = ByteWriter(capacity: bytes.count)
        for s in self { s.encode(into: &w) }
        return w.bytes
    }
}
