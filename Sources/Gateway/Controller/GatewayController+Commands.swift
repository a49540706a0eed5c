import Dissector
import HostCore
import MQTT
import Sensors
import Wire

extension GatewayController {
    /// Who asked for a GATT operation.
    enum CommandOrigin {
        case mqtt(GatewayCommand)
        case control(client: Int, request: ControlRequest)
    }

    // MARK: The control socket

    /// One line from control client `client`; the answer (and later events) come out of
    /// `takeControlOutput`.
    public func controlRequest(_ line: String, client: Int, at now: HostTime) {
        let request: ControlRequest
        switch ControlRequest.parse(line) {
        case .success(let r): request = r
        case .failure(let e):
            controlOutput.append((client, ControlReply.failure(id: e.id, e.message)))
            return
        }
        switch request.operation {
        case .devices:
            controlOutput.append((client, ControlReply.success(id: request.id) { o in
                o.add("devices", objects: self.devices.map(self.deviceObject))
            }))
        case .adapters:
            controlOutput.append((client, ControlReply.success(id: request.id) { o in
                o.add("adapters", objects: self.adapters.map { self.adapterObject($0) })
            }))
        case .status:
            let r = gatewayReport(at: now)
            controlOutput.append((client, ControlReply.success(id: request.id) { o in
                o.add("gateway", self.topics.gatewayID)
                o.add("version", r.version)
                o.add("uptime_s", r.uptimeSeconds, decimals: 0)
                o.add("devices", r.devicesConfigured)
                o.add("connected", r.devicesConnected)
                o.add("adapters", r.adapters)
                o.add("mqtt_connected", self.mqttConnected)
                o.add("mqtt_queued", r.mqtt.queued)
                o.add("mqtt_dropped", r.mqtt.dropped)
            }))
        case .read, .write, .subscribe, .unsubscribe:
            guard let device = request.device, let target = request.target else { return }
            let op: GatewayCommand.Operation = request.operation == .write ? .write : .read
            if request.operation == .subscribe || request.operation == .unsubscribe {
                controlSubscription(request, client: client, device: device, target: target, at: now)
            } else {
                runCommand(.control(client: client, request: request), device: device, operation: op, target: target,
                           value: request.value, withResponse: request.withResponse, at: now)
            }
        }
    }

    /// A control client went away: its subscriptions end (the CCCD is written back when it held
    /// the last registration).
    public func controlClosed(client: Int, at now: HostTime) {
        for (device, handles) in controlSubscriptions {
            for (handle, clients) in handles where clients.contains(client) {
                unsubscribeControl(client, device: device, handle: handle, at: now)
            }
        }
    }

    func deviceObject(_ d: GatewayDevice) -> JSONObject {
        let r = stateReport(d)
        var o = JSONObject()
        o.add("device", d.id)
        GatewayPayloads.addDeviceState(r, into: &o)
        if !d.characteristics.isEmpty { o.add("characteristics", strings: d.characteristics.map(\.uuid.string)) }
        return o
    }

    func adapterObject(_ a: GatewayAdapter) -> JSONObject {
        var o = JSONObject()
        GatewayPayloads.addAdapterStatus(adapterReport(a), linksKey: "slots_used", into: &o)
        return o
    }

    private func controlSubscription(_ request: ControlRequest, client: Int, device: String, target: GatewayCommand.Target, at now: HostTime) {
        guard let d = devicesByID[device] else {
            controlOutput.append((client, ControlReply.failure(id: request.id, unknownDevice(device))))
            return
        }
        guard let c = characteristic(target, of: d) else {
            controlOutput.append((client, ControlReply.failure(id: request.id, notReady(d, target))))
            return
        }
        if request.operation == .unsubscribe {
            unsubscribeControl(client, device: device, handle: c.valueHandle, at: now)
            controlOutput.append((client, ControlReply.success(id: request.id)))
            return
        }
        guard c.canNotify || c.canIndicate else {
            controlOutput.append((client, ControlReply.failure(id: request.id, "\(c.uuid) of \(device) neither notifies nor indicates")))
            return
        }
        controlSubscriptions[device, default: [:]][c.valueHandle, default: []].insert(client)
        if let a = d.adapter, let link = d.link, let host = adapters[a].host {
            register(d, c, host: host, link: link, forControl: true, at: now)
        }
        controlOutput.append((client, ControlReply.success(id: request.id) { o in
            o.add("characteristic", c.uuid.string)
            o.add("handle", Int(c.valueHandle))
        }))
    }

    private func unsubscribeControl(_ client: Int, device: String, handle: UInt16, at now: HostTime) {
        controlSubscriptions[device]?[handle]?.remove(client)
        guard controlSubscriptions[device]?[handle]?.isEmpty ?? true else { return }
        controlSubscriptions[device]?[handle] = nil
        guard let d = devicesByID[device], d.controlRegistered.remove(handle) != nil,
              let a = d.adapter, let link = d.link, let host = adapters[a].host else { return }
        host.perform(.unsubscribe(valueHandle: handle), on: link, at: now)
    }

    /// `{"event":"notification","device":…,"characteristic":…,"value":…,"decoded":…,"time":…}`
    /// to every control client subscribed to the value handle.
    func controlNotification(_ d: GatewayDevice, uuid: BluetoothUUID?, handle: UInt16, value: ArraySlice<UInt8>, clients: Set<Int>) {
        var o = JSONObject()
        o.add("event", "notification")
        o.add("device", d.id)
        o.add("characteristic", uuid?.string ?? Hex.number(handle, width: 4))
        GatewayReply.addValue(Array(value), uuid: uuid, into: &o)
        o.add("time", UnixTime.iso8601(wallTime()))
        let line = o.finished
        for c in clients.sorted() { controlOutput.append((c, line)) }
    }

    // MARK: Reads and writes (MQTT command topics and the control socket)

    func runCommand(_ origin: CommandOrigin, device: String, operation: GatewayCommand.Operation, target: GatewayCommand.Target,
                    value: [UInt8], withResponse: Bool, at now: HostTime) {
        guard !isShuttingDown else {
            answer(origin, device: device, .failure(.invalidState("the gateway is stopping")), uuid: nil)
            return
        }
        guard let d = devicesByID[device] else {
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
            pending[a, default: [:]][op] = .mqtt(command, device: d.id, characteristic: c.uuid)
        case .control(let client, let request):
            pending[a, default: [:]][op] = .control(client: client, request: request, device: d.id, characteristic: c.uuid)
        }
    }

    /// The characteristic a command names, in the device's database.
    private func characteristic(_ target: GatewayCommand.Target, of d: GatewayDevice) -> GATTCharacteristic? {
        guard let db = d.database, d.isUp else { return nil }
        switch target {
        case .uuid(let u): return db.characteristic(u)
        case .handle(let h): return db.characteristic(valueHandle: h)
        }
    }

    private func unknownDevice(_ id: String) -> String {
        "no device '\(id)'" + (devices.isEmpty ? "" : " (known: " + devices.map(\.id).joined(separator: ", ") + ")")
    }

    private func notReady(_ d: GatewayDevice, _ target: GatewayCommand.Target) -> String {
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
                if let d = devicesByID[device] { publishValue(d, uuid: uuid, value: v[...], at: now) }
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
        guard let ops = pending.removeValue(forKey: index) else { return }
        for (_, p) in ops.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            operationCompleted(p, .failure(.controller(reason)), at: now)
        }
    }
}
