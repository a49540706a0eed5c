import HostCore
import Sensors
import JSON
import Wire

/// The local control socket's requests (JSON Lines, Docs/gateway.md "The control socket"):
/// listings, subscriptions for the clients, and their reads and writes (run as the MQTT
/// commands are, `runCommand`).
extension GatewayController {
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
                o.add("mqtt_connected", self.broker.connected)
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
        for (device, handle) in controlSubscriptions.subscriptions(of: client) {
            unsubscribeControl(client, device: device, handle: handle, at: now)
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
        guard let d = directory[id: device] else {
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
        controlSubscriptions.add(client, device: device, handle: c.valueHandle)
        if let a = d.adapter, let link = d.link, let host = adapters[a].host {
            register(d, c, host: host, link: link, forControl: true, at: now)
        }
        controlOutput.append((client, ControlReply.success(id: request.id) { o in
            o.add("characteristic", c.uuid.string)
            o.add("handle", Int(c.valueHandle))
        }))
    }

    private func unsubscribeControl(_ client: Int, device: String, handle: UInt16, at now: HostTime) {
        guard controlSubscriptions.remove(client, device: device, handle: handle), let d = directory[id: device], d.controlRegistered.remove(handle) != nil,
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
}
