import HostCore
import RunTracker
import Sensors
import Wire

/// The three sensors of a run session (heart rate 0x2A37, RSC 0x2A53, Thingy temperature) as
/// the benchmarks script them: their addresses, a GATT database the host takes from its cache
/// (so a link is live after one CCCD write), and the H4 bytes of their notifications.
enum BenchWorkload {
    struct Sensor {
        var role: SensorRole
        var address: DeviceAddress
        var valueHandle: UInt16
        /// Notification values, cycled through.
        var values: [[UInt8]]

        var characteristic: BluetoothUUID { role.measurementCharacteristic }

        /// The database as a previous connection would have cached it: one service, its
        /// measurement characteristic (notify) and its CCCD. No Database Hash, so the cache is
        /// trusted without a request.
        var database: GATTDatabase {
            GATTDatabase(services: [GATTService(
                uuid: role.measurementService, startHandle: 0x0010, endHandle: 0x0014,
                characteristics: [GATTCharacteristic(
                    uuid: characteristic, declarationHandle: valueHandle &- 1, valueHandle: valueHandle,
                    properties: 0x10, endHandle: valueHandle &+ 1,
                    descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: valueHandle &+ 1)])])])
        }

        /// Connection plan: no MTU exchange, database from the cache, the measurement subscribed
        /// (`subscribe` false: the async API subscribes itself).
        func plan(subscribe: Bool) -> LinkPlan {
            var plan = LinkPlan()
            plan.mtu = nil
            plan.discover = true
            plan.cachedDatabase = database
            plan.subscriptions = subscribe ? [Subscription(service: role.measurementService, characteristic: characteristic)] : []
            return plan
        }
    }

    static let sensors: [Sensor] = [
        // Heart Rate Measurement (HRS §3.1): flags 0x10 (RR-Interval present), 72 bpm (UINT8), one RR
        // interval; and flags 0x00, 73 bpm.
        Sensor(role: .heart, address: address(0xC1), valueHandle: 0x0012,
               values: [[0x10, 72, 0x00, 0x04], [0x00, 73]]),
        // RSC Measurement (RSCS §3.2): flags 0x03 (stride length, total distance), speed 3.0 m/s
        // (1/256 m/s), cadence 88, stride 120 cm, distance 1234.5 m (1/10 m).
        Sensor(role: .speed, address: address(0xC2), valueHandle: 0x0012,
               values: [[0x03, 0x00, 0x03, 88, 120, 0x00, 0x39, 0x30, 0x00, 0x00], [0x00, 0x80, 0x03, 90]]),
        // Thingy:52 temperature: int8 degrees + uint8 hundredths: 21.50 °C, 21.75 °C.
        Sensor(role: .environment, address: address(0xC3), valueHandle: 0x0012,
               values: [[21, 50], [21, 75]]),
    ]

    static func address(_ last: UInt8) -> DeviceAddress {
        let digits = Array("0123456789ABCDEF")
        let text = "C0:00:00:00:00:" + String(digits[Int(last >> 4)]) + String(digits[Int(last & 0x0F)])
        return DeviceAddress(BDAddress(string: text) ?? .zero, type: .randomDevice)
    }

    /// One ATT PDU in one L2CAP frame (CID 0x0004) in one ACL packet (PB 0b10, first automatically
    /// flushable), H4 indicator included. Core Spec v5.4 Vol 4, Part E, §5.4.2; Vol 3, Part A, §3.1.
    static func aclH4(handle: UInt16, att: [UInt8]) -> [UInt8] {
        let l2capLength = att.count
        let aclLength = l2capLength + 4
        var b: [UInt8] = [0x02, UInt8(handle & 0xFF), UInt8((handle >> 8) & 0x0F) | 0x20,
                          UInt8(aclLength & 0xFF), UInt8(aclLength >> 8),
                          UInt8(l2capLength & 0xFF), UInt8(l2capLength >> 8), 0x04, 0x00]
        b.append(contentsOf: att)
        return b
    }

    /// Handle Value Notification (Vol 3, Part F, §3.4.7.1) of `value` at `attribute`.
    static func notificationH4(handle: UInt16, attribute: UInt16, value: [UInt8]) -> [UInt8] {
        aclH4(handle: handle, att: [0x1B, UInt8(attribute & 0xFF), UInt8(attribute >> 8)] + value)
    }

    /// `count` notifications, round robin over the three links (connection handles as the
    /// scripted controller gave them), values cycling; H4 bytes back to back.
    static func notificationStream(count: Int, handles: [UInt16]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count * 18)
        var i = 0
        while i < count {
            let s = i % sensors.count
            let sensor = sensors[s]
            let value = sensor.values[(i / sensors.count) % sensor.values.count]
            out.append(contentsOf: notificationH4(handle: handles[s], attribute: sensor.valueHandle, value: value))
            i += 1
        }
        return out
    }
}

/// What a consumer does with a decoded measurement: fold it into a checksum, so the decoders'
/// work cannot be optimised away, and count it.
struct MeasurementSink {
    var count = 0
    var malformed = 0
    var checksum: Double = 0

    mutating func consume(_ value: DecodedSensorValue?) {
        count &+= 1
        switch value {
        case .heartRate(let m)?: checksum += Double(m.heartRate)
        case .rsc(let m)?: checksum += Double(m.speedRaw)
        case .thingyTemperature(let t)?: checksum += Double(t.integer) + Double(t.decimal) / 100
        default: malformed &+= 1
        }
    }
}
