import Wire

/// A peer's attribute database as discovered (or read back from the cache).
public struct GATTDatabase: Sendable, Hashable {
    public var services: [GATTService]
    /// Value of the Database Hash characteristic (0x2B2A) when the peer has one.
    public var databaseHash: [UInt8]?

    public init(services: [GATTService] = [], databaseHash: [UInt8]? = nil) {
        self.services = services
        self.databaseHash = databaseHash
    }

    /// The characteristic with this UUID, inside `service` when given.
    public func characteristic(_ uuid: BluetoothUUID, in service: BluetoothUUID? = nil) -> GATTCharacteristic? {
        for s in services where service == nil || s.uuid == service {
            if let c = s.characteristics.first(where: { $0.uuid == uuid }) { return c }
        }
        return nil
    }

    public func characteristic(valueHandle: UInt16) -> GATTCharacteristic? {
        for s in services {
            if let c = s.characteristics.first(where: { $0.valueHandle == valueHandle }) { return c }
        }
        return nil
    }
}

public struct GATTService: Sendable, Hashable {
    public var uuid: BluetoothUUID
    public var startHandle: UInt16
    public var endHandle: UInt16
    public var isPrimary: Bool
    public var includedServices: [GATTIncludedService]
    public var characteristics: [GATTCharacteristic]

    public init(uuid: BluetoothUUID, startHandle: UInt16, endHandle: UInt16, isPrimary: Bool = true,
                includedServices: [GATTIncludedService] = [], characteristics: [GATTCharacteristic] = []) {
        self.uuid = uuid
        self.startHandle = startHandle
        self.endHandle = endHandle
        self.isPrimary = isPrimary
        self.includedServices = includedServices
        self.characteristics = characteristics
    }
}

public struct GATTIncludedService: Sendable, Hashable {
    public var declarationHandle: UInt16
    public var startHandle: UInt16
    public var endHandle: UInt16
    public var uuid: BluetoothUUID?

    public init(declarationHandle: UInt16, startHandle: UInt16, endHandle: UInt16, uuid: BluetoothUUID?) {
        self.declarationHandle = declarationHandle
        self.startHandle = startHandle
        self.endHandle = endHandle
        self.uuid = uuid
    }
}

public struct GATTCharacteristic: Sendable, Hashable {
    public var uuid: BluetoothUUID
    public var declarationHandle: UInt16
    public var valueHandle: UInt16
    /// Characteristic Properties bit field (Core Spec Vol 3, Part G, §3.3.1.1).
    public var properties: UInt8
    /// Last handle that belongs to this characteristic (descriptors live up to here).
    public var endHandle: UInt16
    public var descriptors: [GATTDescriptor]

    public init(uuid: BluetoothUUID, declarationHandle: UInt16, valueHandle: UInt16, properties: UInt8,
                endHandle: UInt16, descriptors: [GATTDescriptor] = []) {
        self.uuid = uuid
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.properties = properties
        self.endHandle = endHandle
        self.descriptors = descriptors
    }

    /// Handle of the Client Characteristic Configuration descriptor (0x2902), if discovered.
    public var cccdHandle: UInt16? {
        descriptors.first { $0.uuid == BluetoothUUID(0x2902) }?.handle
    }

    public var canNotify: Bool { properties & 0x10 != 0 }
    public var canIndicate: Bool { properties & 0x20 != 0 }
    public var canRead: Bool { properties & 0x02 != 0 }
}

public struct GATTDescriptor: Sendable, Hashable {
    public var uuid: BluetoothUUID
    public var handle: UInt16

    public init(uuid: BluetoothUUID, handle: UInt16) {
        self.uuid = uuid
        self.handle = handle
    }
}
