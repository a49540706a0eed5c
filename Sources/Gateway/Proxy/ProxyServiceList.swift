import ESPHomeAPI
import HostCore
import Wire

/// A peer's database as the service list carries it: each service by its start handle, each
/// characteristic by its value handle (which reads, writes and notifications name), each
/// descriptor by its own. ESPHome sends one message per service, then the done message.
enum ProxyServiceList {
    static func services(of database: GATTDatabase) -> [ProxyGATTService] {
        database.services.map { service in
            ProxyGATTService(uuid: uuid(service.uuid), handle: service.startHandle, characteristics: service.characteristics.map { c in
                ProxyGATTCharacteristic(uuid: uuid(c.uuid), handle: c.valueHandle, properties: c.properties,
                                        descriptors: c.descriptors.map { ProxyGATTDescriptor(uuid: uuid($0.uuid), handle: $0.handle) })
            })
        }
    }

    static func uuid(_ uuid: BluetoothUUID) -> ProxyUUID {
        ProxyUUID(high: uuid.high, low: uuid.low)
    }

    /// The messages that answer a service request: one per service, then done.
    static func messages(address: UInt64, database: GATTDatabase, shortUUIDs: Bool) -> [ServerMessage] {
        services(of: database).map { .services(address: address, [$0], shortUUIDs: shortUUIDs) } + [.servicesDone(address: address)]
    }
}
