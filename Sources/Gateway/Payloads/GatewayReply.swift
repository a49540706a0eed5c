import JSON
import Sensors
import Wire

/// The answer to a command, published on `<device>/reply`:
///
///     {"id":"r1","op":"read","characteristic":"2A19","ok":true,"value":"64","decoded":{"battery":{"value":100,"unit":"%"}},"time":"…"}
///     {"id":"r2","op":"write","characteristic":"2A39","ok":false,"error":"ATT error 0x03 Write Not Permitted","time":"…"}
public enum GatewayReply {
    public static func success(_ c: GatewayCommand, value: [UInt8]? = nil, characteristicUUID: BluetoothUUID? = nil, time: Double) -> String {
        var o = header(id: c.requestID, operation: c.operation, target: c.target.description)
        o.add("ok", true)
        if let v = value {
            let uuid = characteristicUUID ?? { if case .uuid(let u) = c.target { return u } else { return nil } }()
            addValue(v, uuid: uuid, into: &o)
        }
        o.add("time", UnixTime.iso8601(time))
        return o.finished
    }

    /// `"value":"hex"`, and `"decoded"` (its quantities) or `"issue"` when rtstack decodes the
    /// characteristic.
    public static func addValue(_ v: [UInt8], uuid: BluetoothUUID?, into o: inout JSONObject) {
        o.add("value", Hex.string(v))
        guard let uuid, let decoded = SensorValueDecoder.decode(uuid: uuid, value: v) else { return }
        if decoded.isMalformed {
            o.add("issue", decoded.summary)
        } else {
            var d = JSONObject()
            for q in decoded.quantities {
                d.add(q.key, raw: GatewayPayloads.measurementValue(q))
            }
            o.add("decoded", d)
        }
    }

    public static func failure(_ c: GatewayCommand, error: String, time: Double) -> String {
        failure(id: c.requestID, operation: c.operation, target: c.target.description, error: error, time: time)
    }

    public static func failure(_ e: GatewayCommandError, characteristic: String, time: Double) -> String {
        failure(id: e.requestID, operation: e.operation, target: characteristic, error: e.message, time: time)
    }

    static func failure(id: String?, operation: GatewayCommand.Operation, target: String, error: String, time: Double) -> String {
        var o = header(id: id, operation: operation, target: target)
        o.add("ok", false)
        o.add("error", error)
        o.add("time", UnixTime.iso8601(time))
        return o.finished
    }

    private static func header(id: String?, operation: GatewayCommand.Operation, target: String) -> JSONObject {
        var o = JSONObject()
        if let id { o.add("id", id) }
        o.add("op", operation.rawValue)
        o.add("characteristic", target)
        return o
    }
}

extension GatewayPayloads {
    /// `{"value":…,"unit":…}` without the time, for values nested in a reply.
    static func measurementValue(_ q: SensorQuantity) -> String {
        var o = JSONObject()
        addValue(q, into: &o)
        return o.finished
    }
}
