// The keys of `advertisementData` in `centralManager(_:didDiscover:advertisementData:rssi:)`,
// with Apple's string values (apps that log or persist the dictionary see the same keys).

/// `String`: the Complete or Shortened Local Name, from the advertisement or its scan response.
public let CBAdvertisementDataLocalNameKey = "kCBAdvDataLocalName"
/// `Data`: the Manufacturer Specific Data, company identifier (little-endian) first.
public let CBAdvertisementDataManufacturerDataKey = "kCBAdvDataManufacturerData"
/// `[CBUUID: Data]`: the Service Data, per service.
public let CBAdvertisementDataServiceDataKey = "kCBAdvDataServiceData"
/// `[CBUUID]`: the advertised service UUIDs (16-, 32- and 128-bit lists, complete or not).
public let CBAdvertisementDataServiceUUIDsKey = "kCBAdvDataServiceUUIDs"
/// `[CBUUID]`: iOS's "overflow area" of backgrounded iOS peripherals; never present here.
public let CBAdvertisementDataOverflowServiceUUIDsKey = "kCBAdvDataHashedServiceUUIDs"
/// `NSNumber`: the TX Power Level in dBm.
public let CBAdvertisementDataTxPowerLevelKey = "kCBAdvDataTxPowerLevel"
/// `NSNumber` (Bool): whether the advertising event was connectable.
public let CBAdvertisementDataIsConnectable = "kCBAdvDataIsConnectable"
/// `[CBUUID]`: the Service Solicitation UUIDs.
public let CBAdvertisementDataSolicitedServiceUUIDsKey = "kCBAdvDataSolicitedServiceUUIDs"
