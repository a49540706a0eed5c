extension DecodedSensorValue {
    /// The quantities a consumer publishes for this value: each with a key, a name, an exact
    /// value, a unit and a Home Assistant device class. Empty for a malformed value (the
    /// gateway reports those as issues, not as readings).
    public var quantities: [SensorQuantity] {
        switch self {
        case .heartRate(let m): return m.quantities
        case .rsc(let m): return m.quantities
        case .thingyTemperature(let t):
            return [.number("temperature", "Temperature", Int64(t.hundredths), exponent: -2, unit: .celsius, deviceClass: .temperature)]
        case .batteryLevel(let b):
            return [.number("battery", "Battery", Int64(b.percent), unit: .percent, deviceClass: .battery)]
        case .temperature(let t):
            return [SensorQuantity(key: "temperature", name: "Temperature",
                                   value: t.hundredths.map { .number(DecimalNumber($0, exponent: -2)) } ?? .unavailable("not known"),
                                   unit: .celsius, deviceClass: .temperature)]
        case .humidity(let h):
            return [SensorQuantity(key: "humidity", name: "Humidity",
                                   value: h.hundredths.map { .number(DecimalNumber($0, exponent: -2)) } ?? .unavailable("not known"),
                                   unit: .percent, deviceClass: .humidity)]
        case .pressure(let p):
            return [SensorQuantity(key: "pressure", name: "Pressure", value: .number(p.hectopascals),
                                   unit: .hectopascal, deviceClass: .atmosphericPressure)]
        case .csc(let m): return m.quantities
        case .healthTemperature(let m, let intermediate):
            return [SensorQuantity(key: intermediate ? "intermediate_temperature" : "temperature",
                                   name: intermediate ? "Intermediate temperature" : "Temperature",
                                   value: m.temperature.quantityValue, unit: m.unit, deviceClass: .temperature)]
        case .bodySensorLocation(let l):
            return [SensorQuantity(key: "body_sensor_location", name: "Body sensor location", value: .text(l.name), kind: .diagnostic)]
        case .sensorLocation(let l):
            return [SensorQuantity(key: "sensor_location", name: "Sensor location", value: .text(l.name), kind: .diagnostic)]
        case .temperatureType(let t):
            return [SensorQuantity(key: "temperature_type", name: "Temperature type", value: .text(t.name), kind: .diagnostic)]
        case .rscFeature(let f):
            return [SensorQuantity(key: "rsc_feature", name: "RSC features", value: .text(f.summary), kind: .diagnostic)]
        case .cscFeature(let f):
            return [SensorQuantity(key: "csc_feature", name: "CSC features", value: .text(f.summary), kind: .diagnostic)]
        case .malformed:
            return []
        }
    }
}

extension HeartRateMeasurement {
    public var quantities: [SensorQuantity] {
        var out: [SensorQuantity] = [.number("heart_rate", "Heart rate", Int64(heartRate), unit: .beatsPerMinute)]
        if let e = energyExpended {
            out.append(.number("energy_expended", "Energy expended", Int64(e), unit: .kilojoules,
                               deviceClass: .energy, kind: .totalIncreasing))
        }
        if let rr = rrIntervals.last {
            // 1/1024 s in ms to 0.1 ms: raw × 1250 / 128 tenths.
            out.append(.number("rr_interval", "RR interval", Int64(FixedPoint.rounded(Int(rr) * 1250, 128)),
                               exponent: -1, unit: .milliseconds, deviceClass: .duration))
        }
        return out
    }
}

extension RSCMeasurement {
    public var quantities: [SensorQuantity] {
        // 1/256 m/s to mm/s, rounded: the sensor's resolution is 3.9 mm/s.
        var out: [SensorQuantity] = [
            .number("speed", "Speed", Int64(FixedPoint.rounded(Int(speedRaw) * 1000, 256)), exponent: -3,
                    unit: .metersPerSecond, deviceClass: .speed),
            .number("cadence", "Cadence", Int64(cadence), unit: .stepsPerMinute),
        ]
        if let s = strideLengthRaw {
            out.append(.number("stride_length", "Stride length", Int64(s), exponent: -2, unit: .meters, deviceClass: .distance))
        }
        if let d = totalDistanceRaw {
            out.append(.number("total_distance", "Total distance", Int64(d), exponent: -1, unit: .meters,
                               deviceClass: .distance, kind: .totalIncreasing))
        }
        out.append(SensorQuantity(key: "running", name: "Running", value: .boolean(isRunning), kind: .binary))
        return out
    }
}

extension CSCMeasurement {
    /// The cumulative counters; speed and cadence need two measurements (`CSCRates.quantities`).
    public var quantities: [SensorQuantity] {
        var out: [SensorQuantity] = []
        if let w = wheel {
            out.append(.number("wheel_revolutions", "Wheel revolutions", Int64(w.cumulativeRevolutions),
                               unit: nil, kind: .totalIncreasing))
        }
        if let c = crank {
            out.append(.number("crank_revolutions", "Crank revolutions", Int64(c.cumulativeRevolutions),
                               unit: nil, kind: .totalIncreasing))
        }
        return out
    }
}

extension CSCRates {
    /// Speed (km/h, to 0.01) and cadence (rpm, to 0.1) once known.
    public var quantities: [SensorQuantity] {
        var out: [SensorQuantity] = []
        if let v = speedMetersPerSecond {
            out.append(.number("speed", "Speed", Int64((v * 3.6 * 100).rounded()), exponent: -2,
                               unit: .kilometersPerHour, deviceClass: .speed))
        }
        if let c = crankRevolutionsPerMinute {
            out.append(.number("cadence", "Cadence", Int64((c * 10).rounded()), exponent: -1, unit: .revolutionsPerMinute))
        }
        return out
    }
}
