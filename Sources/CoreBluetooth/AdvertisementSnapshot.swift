import Foundation
import Wire

/// One peripheral's advertisement as an app sees it: the advertising data with the scan
/// response's merged in, kept as Sendable values until the delegate's queue builds Apple's
/// `advertisementData` dictionary from it.
struct AdvertisementSnapshot: Sendable, Equatable {
    var localName: String?
    var serviceUUIDs: [BluetoothUUID] = []
    var solicitedServiceUUIDs: [BluetoothUUID] = []
    var manufacturerData: [UInt8]?
    var serviceData: [BluetoothUUID: [UInt8]] = [:]
    var txPowerLevel: Int8?
    var isConnectable = false

    /// The advertising data, then a scan response's: the complete name wins over a shortened
    /// one, lists are joined without repeats, single values come from the advertisement first.
    init(advertising: [UInt8]?, scanResponse: [UInt8]?, connectable: Bool) {
        isConnectable = connectable
        var nameShortened = false
        for bytes in [advertising, scanResponse].compactMap({ $0 }) {
            let ad = AdvertisingData(bytes)
            if let n = ad.localName, localName == nil || (nameShortened && !ad.isLocalNameShortened) {
                localName = n
                nameShortened = ad.isLocalNameShortened
            }
            for u in ad.serviceUUIDs where !serviceUUIDs.contains(u) { serviceUUIDs.append(u) }
            for u in ad.solicitedServiceUUIDs where !solicitedServiceUUIDs.contains(u) { solicitedServiceUUIDs.append(u) }
            if manufacturerData == nil, let m = ad.first(ADType(0xFF)) { manufacturerData = Array(m.data) }
            for d in ad.serviceData where serviceData[d.uuid] == nil { serviceData[d.uuid] = Array(d.data) }
            if txPowerLevel == nil { txPowerLevel = ad.txPower }
        }
    }

    /// Apple's dictionary: only the keys with a value, `IsConnectable` always.
    var dictionary: [String: Any] {
        var d: [String: Any] = [CBAdvertisementDataIsConnectable: NSNumber(value: isConnectable)]
        if let n = localName { d[CBAdvertisementDataLocalNameKey] = n }
        if !serviceUUIDs.isEmpty { d[CBAdvertisementDataServiceUUIDsKey] = serviceUUIDs.map(CBUUID.init) }
        if !solicitedServiceUUIDs.isEmpty { d[CBAdvertisementDataSolicitedServiceUUIDsKey] = solicitedServiceUUIDs.map(CBUUID.init) }
        if let m = manufacturerData { d[CBAdvertisementDataManufacturerDataKey] = Data(m) }
        if !serviceData.isEmpty {
            var s: [CBUUID: Data] = [:]
            for (u, v) in serviceData { s[CBUUID(u)] = Data(v) }
            d[CBAdvertisementDataServiceDataKey] = s
        }
        if let t = txPowerLevel { d[CBAdvertisementDataTxPowerLevelKey] = NSNumber(value: t) }
        return d
    }
}
