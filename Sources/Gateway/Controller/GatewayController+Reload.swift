import HostCore
import MQTT

extension GatewayController {
    /// A new configuration (SIGHUP): devices of entries that stayed the same keep their links;
    /// those of removed entries are disconnected and their Home Assistant entities removed;
    /// new entries start looking. Settings that need a restart are named in the answer (and
    /// left as they were). Adapters are the driver's to open and close (`adapterClosed`,
    /// `setAdapters` for the new list).
    @discardableResult
    public func reload(_ new: GatewayConfiguration, at now: HostTime) -> [String] {
        var notes: [String] = []
        var applied = new
        if new.gatewayID != configuration.gatewayID { notes.append("gateway.id"); applied.gatewayID = configuration.gatewayID }
        if new.mqtt != configuration.mqtt {
            // What only shapes messages can change; the connection and the topic tree cannot.
            var kept = configuration.mqtt
            kept.qos = new.mqtt.qos
            kept.retain = new.mqtt.retain
            if kept != new.mqtt { notes.append("mqtt (the broker connection and topic tree)") }
            applied.mqtt = kept
        }
        if new.control != configuration.control { notes.append("control"); applied.control = configuration.control }
        if new.esphome != configuration.esphome { notes.append("esphome"); applied.esphome = configuration.esphome }
        if new.backend != configuration.backend { notes.append("backend"); applied.backend = configuration.backend }
        if new.stateDirectory != configuration.stateDirectory { notes.append("gateway.state_dir"); applied.stateDirectory = configuration.stateDirectory }

        let newEntries = DeviceEntry.entries(of: applied)
        var mapping: [Int: Int] = [:]   // old entry index → new
        var taken = Set<Int>()
        for (i, e) in entries.enumerated() {
            if let j = newEntries.indices.first(where: { !taken.contains($0) && newEntries[$0].identity == e.identity }) {
                mapping[i] = j
                taken.insert(j)
            }
        }
        let removed = devices.filter { $0.entry >= 0 && mapping[$0.entry] == nil }
        for d in removed { retire(d, at: now) }
        for d in devices where d.entry >= 0 { d.entry = mapping[d.entry] ?? d.entry }
        if applied.statusInterval != configuration.statusInterval {
            nextStatusAt = now &+ applied.statusInterval
        }
        configuration = applied
        entries = newEntries
        for (j, e) in newEntries.enumerated() where !taken.contains(j) { addFixedDevice(of: e, entry: j) }
        for d in devices where d.needsPlacement && d.address != nil { place(d, at: now) }
        updateScanning(at: now)
        note(.info, "configuration reloaded: \(mapping.count) device entr\(mapping.count == 1 ? "y" : "ies") kept, "
             + "\(entries.count - mapping.count) new, \(removed.count) device(s) removed"
             + (notes.isEmpty ? "" : "; needs a restart to change: " + notes.joined(separator: ", ")))
        return notes
    }

    /// A device no entry wants any more: its link ends, its entities and retained messages are
    /// removed.
    func retire(_ d: GatewayDevice, at now: HostTime) {
        d.retiring = true
        unplace(d, at: now)
        for (_, topic) in d.discoveryTopics.sorted(by: { $0.key < $1.key }) {
            messages.append(MQTTMessage(topic: topic, payload: [], qos: .atLeastOnce, retain: true))
        }
        for topic in [topics.deviceState(d.id), topics.deviceAvailability(d.id)] {
            messages.append(MQTTMessage(topic: topic, payload: [], qos: .atLeastOnce, retain: true))
        }
        directory.remove(d)
        controlSubscriptions.forget(device: d.id)
        note(.info, "\(d.id): removed from the configuration")
    }

}
