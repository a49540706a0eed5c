import HostCore
import MQTT
import Sensors
import Wire

extension GatewayController {
    // MARK: Values

    func notification(_ d: GatewayDevice, handle: UInt16, value: ArraySlice<UInt8>, at now: HostTime) {
        let uuid = d.characteristic(valueHandle: handle)
        let clients = controlSubscriptions.clients(of: d.id, handle: handle)
        if !clients.isEmpty {
            controlNotification(d, uuid: uuid, handle: handle, value: value, clients: clients)
        }
        guard let uuid else { return }
        publishValue(d, uuid: uuid, value: value, at: now)
    }

    /// Decodes a value of a characteristic and publishes its quantities (or the issue).
    func publishValue(_ d: GatewayDevice, uuid: BluetoothUUID, value: ArraySlice<UInt8>, at now: HostTime) {
        guard let decoded = SensorValueDecoder.decode(uuid: uuid, value: value) else { return }
        let time = wallTime()
        if case .malformed = decoded {
            messages.append(MQTTMessage(topic: topics.issue(d.id),
                                        text: GatewayPayloads.issue(characteristic: uuid.string, message: decoded.summary,
                                                                    value: Array(value), time: time)))
            return
        }
        // One timestamp text for all the notification's quantities.
        let stamp = UnixTime.iso8601(time)
        for q in decoded.quantities { publish(q, of: d, stamp: stamp) }
        if case .csc(let m) = decoded {
            var rates = d.cscRates ?? CSCRates()
            rates.update(m, at: Double(now) / 1e9)
            d.cscRates = rates
            for q in rates.quantities { publish(q, of: d, stamp: stamp) }
        }
    }

    /// One quantity: its Home Assistant config first (once), then the value stamped with the
    /// `UnixTime.iso8601` text of its notification or advertisement.
    func publish(_ q: SensorQuantity, of d: GatewayDevice, stamp: String) {
        let topic: String
        if let i = d.quantityTopicsIndex(q.key), d.quantityTopics[i].discovery != nil || !configuration.mqtt.discovery {
            topic = d.quantityTopics[i].value
        } else {
            topic = firstValue(q, of: d)
        }
        messages.append(MQTTMessage(topic: topic, payload: GatewayPayloads.measurementPayload(q, stamp: stamp),
                                    qos: configuration.mqtt.qos, retain: configuration.mqtt.retain))
    }

    /// A quantity's first value (on this broker connection): its topic made, its Home
    /// Assistant config published (before the value).
    private func firstValue(_ q: SensorQuantity, of d: GatewayDevice) -> String {
        let i = d.quantityTopicsIndex(q.key) ?? {
            d.quantityTopics.append(GatewayDevice.QuantityTopics(key: q.key, value: topics.quantity(d.id, q.key)))
            return d.quantityTopics.count - 1
        }()
        if configuration.mqtt.discovery, d.quantityTopics[i].discovery == nil {
            let config = discovery.config(for: q, device: identity(of: d))
            d.quantityTopics[i].discovery = config.topic
            messages.append(config)
        }
        return d.quantityTopics[i].value
    }

    func identity(of d: GatewayDevice) -> DeviceIdentity {
        let bare = d.address?.address.string ?? d.fixedAddress?.string ?? d.id
        let model = entries.indices.contains(d.entry) ? entries[d.entry].model(profile: d.profile) : nil
        return DeviceIdentity(id: d.id, name: d.displayName, address: bare, model: model)
    }

    // MARK: Advertisements

    /// A device of a `connect: false` entry: every passive format in its advertisements.
    func passive(_ d: GatewayDevice, data: AdvertisingData, address: BDAddress, at now: HostTime) {
        let key = entries.indices.contains(d.entry) ? entries[d.entry].bthomeKey : nil
        let found = PassiveAdvertisement.decode(data, address: address, bthomeKey: key, cipher: options.cipher)
        if d.lastAvailable != true { publishState(d, at: now) }
        publishPassive(found, of: d, at: now)
    }

    /// The formats `passive:` names, for any device heard (configured or not).
    func passiveFormats(report: AdvertisementReport, data: AdvertisingData, name: String?, at now: HostTime) {
        let address = report.address.address
        let p = configuration.passive
        let found = PassiveAdvertisement.decode(data, address: address, cipher: options.cipher).filter { f in
            switch f {
            case .iBeacon: return p.iBeacon
            case .eddystone: return p.eddystone
            case .bthome: return p.bthome
            case .malformed(let format, _):
                return (format == "iBeacon" && p.iBeacon) || (format == "Eddystone" && p.eddystone)
            }
        }
        guard !found.isEmpty else { return }
        let d: GatewayDevice
        if let known = directory[address: address] {
            d = known
        } else {
            d = GatewayDevice(id: TopicLevel.fromAddress(address.string), entry: -1, address: report.address, fixedAddress: nil)
            d.placement = .passive
            d.advertisedName = name
            guard directory[id: d.id] == nil else { return }
            add(d)
            publishState(d, at: now)
        }
        publishPassive(found, of: d, at: now)
    }

    private func publishPassive(_ found: [PassiveAdvertisement], of d: GatewayDevice, at now: HostTime) {
        let time = wallTime()
        let stamp = UnixTime.iso8601(time)
        for f in found {
            if case .malformed(let format, let error) = f {
                messages.append(MQTTMessage(topic: topics.issue(d.id),
                                            text: GatewayPayloads.issue(characteristic: format, message: error.description, value: nil, time: time)))
                continue
            }
            if case .bthome(let b) = f, let issue = b.issue {
                messages.append(MQTTMessage(topic: topics.issue(d.id),
                                            text: GatewayPayloads.issue(characteristic: "bthome", message: issue.description, value: nil, time: time)))
            }
            for q in f.quantities {
                // Advertisements repeat many times a second: a value goes out when it changes, or
                // again after `passiveRepeat`.
                if let last = d.lastPassive[q.key], last.value == q.value, now &- last.at < options.passiveRepeat { continue }
                d.lastPassive[q.key] = (q.value, now)
                publish(q, of: d, stamp: stamp)
            }
        }
    }

    // MARK: States

    /// The device's state name: scanning (not found), connecting, connected, ready,
    /// disconnected, waiting_for_slot, advertising (passive).
    func stateName(_ d: GatewayDevice) -> String {
        switch d.placement {
        case .passive: return "advertising"
        case .waitingForSlot: return "waiting_for_slot"
        case .unplaced:
            if d.linkState == .disconnected { return "disconnected" }
            return d.address == nil || d.sightings.isEmpty ? "scanning" : "connecting"
        case .linked:
            return (d.linkState ?? .queued).stage.rawValue
        }
    }

    func stateReport(_ d: GatewayDevice) -> DeviceStateReport {
        let rssi = d.sightings.values.max { $0.at < $1.at }.map { Int($0.rssi) }
        let adapter = d.adapter.map { adapters[$0].name }
        return DeviceStateReport(state: stateName(d), address: d.address?.description ?? d.fixedAddress?.string ?? "",
                                 name: d.advertisedName, adapter: adapter, rssi: rssi,
                                 reason: stateName(d) == "ready" ? nil : d.reason)
    }

    /// `<device>/state` and `<device>/available` (both retained), when they changed.
    func publishState(_ d: GatewayDevice, at now: HostTime) {
        guard startedAt != nil else { return }
        var r = stateReport(d)
        r.rssi = nil  // RSSI alone changing is no new state
        if r != d.lastState {
            d.lastState = r
            messages.append(MQTTMessage(topic: topics.deviceState(d.id), text: GatewayPayloads.deviceState(stateReport(d), time: wallTime()),
                                        qos: .atLeastOnce, retain: true))
        }
        let available = r.isAvailable
        if available != d.lastAvailable {
            d.lastAvailable = available
            messages.append(MQTTMessage(topic: topics.deviceAvailability(d.id), text: available ? "online" : "offline",
                                        qos: .atLeastOnce, retain: true))
        }
    }

    func adapterReport(_ a: GatewayAdapter) -> AdapterStatusReport {
        let state: String
        var reason = a.slotReason
        switch a.phase {
        case .up: state = "up"
        case .starting: state = "starting"
        case .down(let why):
            state = "down"
            reason = why
        }
        let used = linksPlaced(on: a.index)
        return AdapterStatusReport(adapter: a.name, state: state, backend: a.backend.rawValue,
                                   address: a.info.map { $0.ownAddress.address.string },
                                   links: used, slotsFree: a.slotLimit.map { max(0, $0 - used) },
                                   slotLimit: a.slotLimit, reason: reason)
    }

    /// `adapter/<name>` (retained), when it changed.
    func publishAdapterStatus(_ a: GatewayAdapter, at now: HostTime) {
        guard startedAt != nil else { return }
        let r = adapterReport(a)
        guard r != a.lastStatus else { return }
        a.lastStatus = r
        messages.append(MQTTMessage(topic: topics.adapter(a.name), text: GatewayPayloads.adapterStatus(r, time: wallTime()),
                                    qos: .atLeastOnce, retain: true))
    }

    func gatewayReport(at now: HostTime) -> GatewayStatusReport {
        GatewayStatusReport(version: options.version, uptimeSeconds: Double(now &- (startedAt ?? now)) / 1e9,
                            devicesConfigured: devices.filter { $0.entry >= 0 }.count,
                            devicesConnected: devices.filter(\.isUp).count, adapters: adapters.filter(\.isUp).count,
                            mqtt: broker.statistics, droppedSinceLastReport: broker.droppedToReport)
    }

    func publishGatewayStatus(at now: HostTime) {
        messages.append(MQTTMessage(topic: topics.gatewayStatus, text: GatewayPayloads.gatewayStatus(gatewayReport(at: now), time: wallTime()),
                                    qos: .atLeastOnce, retain: true))
        broker.droppedToReport = nil
    }
}
