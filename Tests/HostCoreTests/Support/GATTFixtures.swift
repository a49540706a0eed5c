import Wire
@testable import HostCore

/// Databases shaped like real sensors, with their handles spelled out so tests can check
/// discovery to the handle.
enum GATTFixtures {
    static let hash: [UInt8] = Array(0xA0...0xAF)

    /// A heart-rate sensor (Heart Rate Service, Bluetooth SIG HRS 1.0) with GAP, GATT (Service
    /// Changed, Database Hash) and Battery.
    ///
    /// ```
    /// 0001 primary 1800 ─ 0002/0003 2A00 Device Name (read) · 0004/0005 2A01 Appearance (read)
    /// 0006 primary 1801 ─ 0007/0008 2A05 Service Changed (indicate), 0009 CCCD
    ///                     000A/000B 2B2A Database Hash (read)
    /// 000C primary 180D ─ 000D/000E 2A37 Heart Rate Measurement (notify), 000F CCCD
    ///                     0010/0011 2A38 Body Sensor Location (read)
    ///                     0012/0013 2A39 Heart Rate Control Point (write)
    /// 0014 primary 180F ─ 0015/0016 2A19 Battery Level (read, notify), 0017 CCCD
    /// ```
    ///
    /// With `deviceInformation` (a firmware update, say), a Device Information service sits
    /// between GATT and Heart Rate, and everything from Heart Rate on moves by 3 handles:
    ///
    /// ```
    /// 000C primary 180A ─ 000D/000E 2A29 Manufacturer Name String (read)
    /// 000F primary 180D ─ 0010/0011 2A37 Heart Rate Measurement (notify), 0012 CCCD …
    /// ```
    static func heartRateServer(hash: [UInt8] = GATTFixtures.hash, deviceInformation: Bool = false) -> FakeATTServer {
        FakeATTServer { b in
            b.service(.genericAccessService) { s in
                s.characteristic(.deviceName, .read, value: Array("rtstack HR".utf8))
                s.characteristic(.appearance, .read, value: [0x41, 0x03])
            }
            b.service(.genericAttributeService) { s in
                s.characteristic(.serviceChanged, .indicate, value: [0, 0, 0, 0], cccd: true)
                s.characteristic(.databaseHash, .read, value: hash)
            }
            if deviceInformation {
                b.service(.deviceInformation) { s in
                    s.characteristic(.manufacturerNameString, .read, value: Array("rtstack".utf8))
                }
            }
            b.service(BluetoothUUID(0x180D)) { s in
                s.characteristic(BluetoothUUID(0x2A37), .notify, value: [0x00, 0x48], cccd: true)
                s.characteristic(BluetoothUUID(0x2A38), .read, value: [0x01])
                s.characteristic(BluetoothUUID(0x2A39), .write, value: [0x00])
            }
            b.service(BluetoothUUID(0x180F)) { s in
                s.characteristic(BluetoothUUID(0x2A19), [.read, .notify], value: [87], cccd: true)
            }
        }
    }

    static let cccd = BluetoothUUID.clientCharacteristicConfiguration

    /// What discovery of `heartRateServer` must find.
    static var heartRateDatabase: GATTDatabase {
        GATTDatabase(services: [
            GATTService(uuid: .genericAccessService, startHandle: 0x0001, endHandle: 0x0005, characteristics: [
                GATTCharacteristic(uuid: .deviceName, declarationHandle: 0x0002, valueHandle: 0x0003, properties: 0x02, endHandle: 0x0003),
                GATTCharacteristic(uuid: .appearance, declarationHandle: 0x0004, valueHandle: 0x0005, properties: 0x02, endHandle: 0x0005),
            ]),
            GATTService(uuid: .genericAttributeService, startHandle: 0x0006, endHandle: 0x000B, characteristics: [
                GATTCharacteristic(uuid: .serviceChanged, declarationHandle: 0x0007, valueHandle: 0x0008, properties: 0x20, endHandle: 0x0009,
                                   descriptors: [GATTDescriptor(uuid: cccd, handle: 0x0009)]),
                GATTCharacteristic(uuid: .databaseHash, declarationHandle: 0x000A, valueHandle: 0x000B, properties: 0x02, endHandle: 0x000B),
            ]),
            GATTService(uuid: BluetoothUUID(0x180D), startHandle: 0x000C, endHandle: 0x0013, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0x2A37), declarationHandle: 0x000D, valueHandle: 0x000E, properties: 0x10, endHandle: 0x000F,
                                   descriptors: [GATTDescriptor(uuid: cccd, handle: 0x000F)]),
                GATTCharacteristic(uuid: BluetoothUUID(0x2A38), declarationHandle: 0x0010, valueHandle: 0x0011, properties: 0x02, endHandle: 0x0011),
                GATTCharacteristic(uuid: BluetoothUUID(0x2A39), declarationHandle: 0x0012, valueHandle: 0x0013, properties: 0x08, endHandle: 0x0013),
            ]),
            GATTService(uuid: BluetoothUUID(0x180F), startHandle: 0x0014, endHandle: 0x0017, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0x2A19), declarationHandle: 0x0015, valueHandle: 0x0016, properties: 0x12, endHandle: 0x0017,
                                   descriptors: [GATTDescriptor(uuid: cccd, handle: 0x0017)]),
            ]),
        ], databaseHash: hash)
    }

    /// A Nordic Thingy:52-like peer: 128-bit vendor services (EF68xxxx-9B35-4933-9B10-
    /// 52FFA9740042) with many notifying characteristics, no Database Hash.
    static func thingy(_ short: UInt16) -> BluetoothUUID {
        BluetoothUUID(high: 0xEF68_0000_9B35_4933 | UInt64(short) << 32, low: 0x9B10_52FF_A974_0042)
    }

    static let thingyTemperature = thingy(0x0201)
    static let thingyEnvironment = thingy(0x0200)

    /// With `extraConfiguration` (newer firmware), the first vendor service has one more
    /// characteristic (EF680108), so every handle after it moves by 2.
    static func thingyServer(extraConfiguration: Bool = false) -> FakeATTServer {
        FakeATTServer { b in
            b.service(.genericAccessService) { s in
                s.characteristic(.deviceName, [.read, .write], value: Array("Thingy".utf8))
                s.characteristic(.appearance, .read, value: [0, 0])
                s.characteristic(BluetoothUUID(0x2A04), .read, value: [6, 0, 12, 0, 0, 0, 0x90, 1])
            }
            b.service(.genericAttributeService) { s in
                s.characteristic(.serviceChanged, .indicate, value: [0, 0, 0, 0], cccd: true)
            }
            b.service(thingy(0x0100)) { s in
                for c: UInt16 in 0x0101...0x0107 { s.characteristic(thingy(c), [.read, .write], value: [1, 2, 3]) }
                if extraConfiguration { s.characteristic(thingy(0x0108), [.read, .write], value: [0]) }
            }
            b.service(thingy(0x0200)) { s in
                for c: UInt16 in 0x0201...0x0205 { s.characteristic(thingy(c), .notify, value: [0, 0], cccd: true) }
                s.characteristic(thingy(0x0206), [.read, .write], value: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
            }
            b.service(thingy(0x0300)) { s in
                s.characteristic(thingy(0x0301), [.read, .write], value: [0, 0, 0, 0])
                s.characteristic(thingy(0x0302), [.read, .notify], value: [0], cccd: true)
                s.characteristic(thingy(0x0303), [.read, .write], value: [0, 0, 0, 0])
            }
            b.service(thingy(0x0400)) { s in
                s.characteristic(thingy(0x0401), [.read, .write], value: [0, 0, 0, 0, 0, 0, 0, 0, 0])
                for c: UInt16 in 0x0402...0x040A { s.characteristic(thingy(c), .notify, value: [0, 0], cccd: true) }
            }
            b.service(thingy(0x0500)) { s in
                s.characteristic(thingy(0x0501), [.read, .write], value: [0, 0])
                s.characteristic(thingy(0x0502), .writeWithoutResponse, value: [])
                s.characteristic(thingy(0x0503), .notify, value: [0], cccd: true)
                s.characteristic(thingy(0x0504), .notify, value: [0], cccd: true)
            }
            b.service(BluetoothUUID(0x180F)) { s in
                s.characteristic(BluetoothUUID(0x2A19), [.read, .notify], value: [90], cccd: true)
            }
            b.service(BluetoothUUID(0xFE59)) { s in
                s.characteristic(BluetoothUUID(high: 0x8EC9_0003_F315_4F60, low: 0x9FB8_8383_0DAE_A50E), [.write, .indicate], cccd: true)
            }
        }
    }

    /// A Running Speed and Cadence sensor (Bluetooth SIG RSCS 1.0): GAP, GATT with Service
    /// Changed but no Database Hash, and RSCS.
    ///
    /// ```
    /// 0001 primary 1800 ─ 0002/0003 2A00 Device Name (read)
    /// 0004 primary 1801 ─ 0005/0006 2A05 Service Changed (indicate), 0007 CCCD
    /// 0008 primary 1814 ─ 0009/000A 2A53 RSC Measurement (notify), 000B CCCD
    ///                     000C/000D 2A54 RSC Feature (read)
    ///                     000E/000F 2A5D Sensor Location (read)
    ///                     0010/0011 2A55 SC Control Point (write, indicate), 0012 CCCD
    /// ```
    static func runningSpeedAndCadenceServer() -> FakeATTServer {
        FakeATTServer { b in
            b.service(.genericAccessService) { s in
                s.characteristic(.deviceName, .read, value: Array("rtstack RSC".utf8))
            }
            b.service(.genericAttributeService) { s in
                s.characteristic(.serviceChanged, .indicate, value: [0, 0, 0, 0], cccd: true)
            }
            b.service(.runningSpeedAndCadence) { s in
                s.characteristic(.rscMeasurement, .notify, value: [0, 0, 0, 0], cccd: true)
                s.characteristic(.rscFeature, .read, value: [0x03, 0x00])
                s.characteristic(BluetoothUUID(0x2A5D), .read, value: [0x01])
                s.characteristic(.scControlPoint, [.write, .indicate], cccd: true)
            }
        }
    }

    static let includedVendor = thingy(0x0900)

    /// A service with two includes before its characteristic: a 16-bit secondary service
    /// (Battery, 0x0020–0x0023: the UUID is in the include) and a 128-bit one (0x0030–0x0032:
    /// read from its declaration), Vol 3, Part G, §3.2.
    static func includesServer() -> FakeATTServer {
        FakeATTServer { b in
            b.service(BluetoothUUID(0x1810)) { s in
                s.include(start: 0x0020, end: 0x0023, uuid: BluetoothUUID(0x180F))
                s.include(start: 0x0030, end: 0x0032, uuid: includedVendor)
                s.characteristic(BluetoothUUID(0x2A35), .indicate, cccd: true)
            }
            b.skip(to: 0x0020)
            b.service(BluetoothUUID(0x180F), primary: false) { s in
                s.characteristic(BluetoothUUID(0x2A19), [.read, .notify], value: [50], cccd: true)
            }
            b.skip(to: 0x0030)
            b.service(includedVendor, primary: false) { s in
                s.characteristic(thingy(0x0901), .read, value: [1])
            }
        }
    }
}
