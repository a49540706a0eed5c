import Wire

/// A decoded characteristic value of any kind this target knows, or the reason it could not be
/// decoded. Malformed values are a case of their own so that a broken sensor shows up in the
/// live view and the logs instead of vanishing.
public enum DecodedSensorValue: Sendable, Equatable {
    case heartRate(HeartRateMeasurement)
    case bodySensorLocation(BodySensorLocation)
    case rsc(RSCMeasurement)
    case rscFeature(RSCFeature)
    case sensorLocation(SensorLocation)
    case thingyTemperature(ThingyTemperature)
    case batteryLevel(BatteryLevel)
    case temperature(EnvironmentalTemperature)
    case humidity(EnvironmentalHumidity)
    case pressure(EnvironmentalPressure)
    case csc(CSCMeasurement)
    case cscFeature(CSCFeature)
    /// Temperature Measurement (0x2A1C) or Intermediate Temperature (0x2A1E), which share a layout.
    case healthTemperature(TemperatureMeasurement, intermediate: Bool)
    case temperatureType(TemperatureType)
    /// The UUID is known but its value does not decode.
    case malformed(BluetoothUUID, WireError)

    /// The decoded value itself, for code that handles every kind alike.
    public var value: (any SensorCharacteristic)? {
        switch self {
        case .heartRate(let v): return v
        case .bodySensorLocation(let v): return v
        case .rsc(let v): return v
        case .rscFeature(let v): return v
        case .sensorLocation(let v): return v
        case .thingyTemperature(let v): return v
        case .batteryLevel(let v): return v
        case .temperature(let v): return v
        case .humidity(let v): return v
        case .pressure(let v): return v
        case .csc(let v): return v
        case .cscFeature(let v): return v
        case .healthTemperature(let v, _): return v
        case .temperatureType(let v): return v
        case .malformed: return nil
        }
    }

    /// The characteristic the value belongs to.
    public var uuid: BluetoothUUID {
        switch self {
        case .malformed(let uuid, _): return uuid
        case .healthTemperature(_, let intermediate):
            return intermediate ? SensorCharacteristicUUID.intermediateTemperature : SensorCharacteristicUUID.temperatureMeasurement
        default: return value.map { type(of: $0).uuid } ?? BluetoothUUID(0)
        }
    }

    /// Short name of the characteristic, for labels ("Heart Rate Measurement").
    public var characteristicName: String {
        SensorValueDecoder.name(of: uuid) ?? uuid.string
    }

    public var isMalformed: Bool {
        if case .malformed = self { return true } else { return false }
    }
}

extension DecodedSensorValue: FieldDescribing {
    /// One line for the live view: "72 bpm, RR 812 ms", "23.50 °C", "malformed: …".
    public var summary: String {
        switch self {
        case .malformed(_, let error): return "malformed " + characteristicName + ": " + error.description
        default: return value?.summary ?? ""
        }
    }

    public func describeFields(into fields: inout FieldList) {
        switch self {
        case .malformed(let uuid, let error):
            fields.add("Characteristic", "\(characteristicName) (\(uuid.string))")
            fields.add("Error", error.description)
        default:
            fields.nested(characteristicName, uuid.string) { list in
                value?.describeFields(into: &list)
            }
        }
    }
}
