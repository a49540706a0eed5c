import HostCore
import JSON
import MQTT
import Sensors
import Wire

extension GatewayController {
    /// Who asked for a GATT operation.
    enum CommandOrigin {
        case mqtt(GatewayCommand)
        case control(client: Int, request: ControlRequest)
    }

    // MARK: Reads and writes (MQTT command topics and the control socket)

    func runCommand(_ origin: CommandOrigin, device: String, operation: GatewayCommand.Operation, target: GatewayCommand.Target,
                    value: [UInt8], withResponse: Bool, at now: HostTime) {
        guard !isShuttingDown else {
            answer(origin, device: device, .failure(.invalidState("the gateway is stopping")), uuid: nil)
            return
        }
        guard let d = directory[id: device] else {
            answer(origin, device: device, .failure(.notFound(unknownDevice(device))), uuid: nil)
            return
        }
        guard let a = d.adapter, let link = d.link, let host = adapters[a].host, d.isUp, let c = characteristic(target, of: d) else {
            answer(origin, device: device, .failure(.invalidState(notReady(d, target))), uuid: nil)
            return
        }
        let gatt: GATTOperation
        switch operation {
        case .read: gatt = .read(handle: c.valueHandle)
        case .write: gatt = withResponse ? .write(handle: c.valueHandle, value: value) : .writeWithoutResponse(handle: c.valueHandle, value: value)
        }
        let op = host.perform(gatt, on: link, at: now)
        switch origin {
        case .mqtt(let command):
            pending.add(op, on: a, .mqtt(command, device: d.id, characteristic: c.uuid))
        case .control(let client, let request):
            pending.add(op, on: a, .control(client: client, request: request, device: d.id, characteristic: c.uuid))
        }
    }

    /// The characteristic a command names, in the device's database.
    func characteristic(_ target: GatewayCommand.Target, of d: GatewayDevice) -> GATTCharacteristic? {
        guard let db = d.database, d.isUp else { return nil }
        switch target {
        case .uuid(let u): return db.characteristic(u)
        case .handle(let h): return db.characteristic(valueHandle: h)
        }
    }

    func unknownDevice(_ id: String) -> String {
        "no device '\(id)'" + (devices.isEmpty ? "" : " (known: " + devices.map(\.id).joined(separator: ", ") + ")")
    }

    func notReady(_ d: GatewayDevice, _ target: GatewayCommand.Target) -> String {
        if !d.isUp || d.database == nil { return "\(d.id) is not connected (\(stateName(d)))" }
        return "\(d.id) has no characteristic \(target)"
    }

    func operationCompleted(_ p: PendingOperation, _ result: Result<GATTResult, HostError>, at now: HostTime) {
        switch p {
        case let .mqtt(command, device, uuid):
            answer(.mqtt(command), device: device, result, uuid: uuid)
        case let .control(client, request, device, uuid):
            answer(.control(client: client, request: request), device: device, result, uuid: uuid)
        case let .configuredRead(device, uuid):
            switch result {
            case .success(.value(let v)):
                if let d = directory[id: device] { publishValue(d, uuid: uuid, value: v[...], at: now) }
            case .failure(let e):
                note(.warning, "\(device): read \(uuid): \(e.explanation)")
            case .success:
                break
            }
        case let .subscription(device, uuid):
            if case .failure(let e) = result { note(.warning, "\(device): subscription to \(uuid) failed: \(e.explanation)") }
        }
    }

    private func answer(_ origin: CommandOrigin, device: String, _ result: Result<GATTResult, HostError>, uuid: BluetoothUUID?) {
        var value: [UInt8]?
        var error: String?
        switch result {
        case .success(.value(let v)): value = v
        case .success: break
        case .failure(let e): error = e.description
        }
        switch origin {
        case .mqtt(let c):
            let text = error.map { GatewayReply.failure(c, error: $0, time: wallTime()) }
                ?? GatewayReply.success(c, value: value, characteristicUUID: uuid, time: wallTime())
            messages.append(MQTTMessage(topic: topics.reply(TopicLevel.sanitize(device)), text: text))
        case .control(let client, let request):
            let line = error.map { ControlReply.failure(id: request.id, $0) } ?? ControlReply.success(id: request.id) { o in
                if let uuid { o.add("characteristic", uuid.string) }
                if let v = value { GatewayReply.addValue(v, uuid: uuid, into: &o) }
            }
            controlOutput.append((client, line))
        }
    }

    /// Operations in flight on an adapter that was lost fail with `reason`.
    func failPending(adapter index: Int, reason: String, at now: HostTime) {
        for p in pending.removeAll(on: index) {
            operationCompleted(p, .failure(.controller(reason)), at: now)
        }
    }
}
