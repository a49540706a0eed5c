import Wire

/// UUIDs of the characteristics this target decodes, in one place so the registry, the GATT
/// client and the tests agree. Kept out of a `BluetoothUUID` extension so that other targets can
/// name their own constants without clashing.
public enum SensorCharacteristicUUID {
    /// Temperature Measurement (HTS v1.0 §3.1).
    public static let temperatureMeasurement = BluetoothUUID(0x2A1C)
    /// Temperature Type (HTS v1.0 §3.2).
    public static let temperatureType = BluetoothUUID(0x2A1D)
    /// Intermediate Temperature (HTS v1.0 §3.3): the Temperature Measurement layout, notified
    /// while a measurement is in progress.
    public static let intermediateTemperature = BluetoothUUID(0x2A1E)
    /// Battery Level (GATT Specification Supplement; Battery Service).
    public static let batteryLevel = BluetoothUUID(0x2A19)
    /// Heart Rate Measurement (HRS v1.0 §3.1).
    public static let heartRateMeasurement = BluetoothUUID(0x2A37)
    /// Body Sensor Location (HRS v1.0 §3.2).
    public static let bodySensorLocation = BluetoothUUID(0x2A38)
    /// RSC Measurement (RSCS v1.0 §3.1).
    public static let rscMeasurement = BluetoothUUID(0x2A53)
    /// RSC Feature (RSCS v1.0 §3.2).
    public static let rscFeature = BluetoothUUID(0x2A54)
    /// CSC Measurement (CSCS v1.0 §3.1).
    public static let cscMeasurement = BluetoothUUID(0x2A5B)
    /// CSC Feature (CSCS v1.0 §3.2).
    public static let cscFeature = BluetoothUUID(0x2A5C)
    /// Sensor Location (RSCS v1.0 §3.3, shared with the cycling services).
    public static let sensorLocation = BluetoothUUID(0x2A5D)
    /// Pressure (Environmental Sensing Service; GATT Specification Supplement).
    public static let pressure = BluetoothUUID(0x2A6D)
    /// Temperature (Environmental Sensing Service; GATT Specification Supplement).
    public static let temperature = BluetoothUUID(0x2A6E)
    /// Humidity (Environmental Sensing Service; GATT Specification Supplement).
    public static let humidity = BluetoothUUID(0x2A6F)
    /// Nordic Thingy:52 Environment Service, Temperature characteristic (vendor base
    /// EF68xxxx-9B35-4933-9B10-52FFA9740042, short id 0x0201).
    public static let thingyTemperature = BluetoothUUID(high: 0xEF68_0201_9B35_4933, low: 0x9B10_52FF_A974_0042)
}

/// Service UUIDs that hold the characteristics above (for discovery filters).
public enum SensorServiceUUID {
    public static let battery = BluetoothUUID(0x180F)
    public static let heartRate = BluetoothUUID(0x180D)
    public static let runningSpeedAndCadence = BluetoothUUID(0x1814)
    public static let cyclingSpeedAndCadence = BluetoothUUID(0x1816)
    public static let healthThermometer = BluetoothUUID(0x1809)
    public static let environmentalSensing = BluetoothUUID(0x181A)
    /// Thingy:52 Environment Service (short id 0x0200 on the Thingy base).
    public static let thingyEnvironment = BluetoothUUID(high: 0xEF68_0200_9B35_4933, low: 0x9B10_52FF_A974_0042)
}
