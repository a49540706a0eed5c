import Wire

/// Picks the decoder for a characteristic value by its UUID.
public enum SensorValueDecoder {
    /// The decoded value; `.malformed` when the UUID is known but the bytes are not a valid value;
    /// nil for a UUID this target does not decode. Never traps, and allocates nothing for the
    /// value kinds that come as frequent notifications (heart rate, RSC, temperatures).
    public static func decode(uuid: BluetoothUUID, value: ArraySlice<UInt8>) -> DecodedSensorValue? {
        do throws(WireError) {
            if let short = uuid.uuid16 {
                switch short {
                case 0x2A37: return .heartRate(try HeartRateMeasurement(decoding: value))
                case 0x2A53: return .rsc(try RSCMeasurement(decoding: value))
                case 0x2A19: return .batteryLevel(try BatteryLevel(decoding: value))
                case 0x2A6E: return .temperature(try EnvironmentalTemperature(decoding: value))
                case 0x2A6F: return .humidity(try EnvironmentalHumidity(decoding: value))
                case 0x2A38: return .bodySensorLocation(try BodySensorLocation(decoding: value))
                case 0x2A54: return .rscFeature(try RSCFeature(decoding: value))
                case 0x2A5D: return .sensorLocation(try SensorLocation(decoding: value))
                case 0x2A5B: return .csc(try CSCMeasurement(decoding: value))
                case 0x2A5C: return .cscFeature(try CSCFeature(decoding: value))
                case 0x2A6D: return .pressure(try EnvironmentalPressure(decoding: value))
                case 0x2A1C: return .healthTemperature(try TemperatureMeasurement(decoding: value), intermediate: false)
                case 0x2A1E: return .healthTemperature(try TemperatureMeasurement(decoding: value), intermediate: true)
                case 0x2A1D: return .temperatureType(try TemperatureType(decoding: value))
                default: return nil
                }
            }
            if uuid == SensorCharacteristicUUID.thingyTemperature {
                return .thingyTemperature(try ThingyTemperature(decoding: value))
            }
            return nil
        } catch {
            return .malformed(uuid, error)
        }
    }

    public static func decode(uuid: BluetoothUUID, value: [UInt8]) -> DecodedSensorValue? {
        decode(uuid: uuid, value: value[...])
    }

    /// Whether `decode` knows the UUID (to decide what to subscribe to).
    public static func canDecode(_ uuid: BluetoothUUID) -> Bool {
        name(of: uuid) != nil
    }

    /// The characteristic's name as the specifications write it, for the UUIDs decoded here.
    public static func name(of uuid: BluetoothUUID) -> String? {
        if let short = uuid.uuid16 {
            switch short {
            case 0x2A37: return "Heart Rate Measurement"
            case 0x2A38: return "Body Sensor Location"
            case 0x2A53: return "RSC Measurement"
            case 0x2A54: return "RSC Feature"
            case 0x2A5D: return "Sensor Location"
            case 0x2A19: return "Battery Level"
            case 0x2A6E: return "Temperature"
            case 0x2A6F: return "Humidity"
            case 0x2A6D: return "Pressure"
            case 0x2A5B: return "CSC Measurement"
            case 0x2A5C: return "CSC Feature"
            case 0x2A1C: return "Temperature Measurement"
            case 0x2A1D: return "Temperature Type"
            case 0x2A1E: return "Intermediate Temperature"
            default: return nil
            }
        }
        return uuid == SensorCharacteristicUUID.thingyTemperature ? "Thingy Temperature" : nil
    }
}
