import HostCore
import MQTT

/// The broker connection as the controller sees it: up (what is retained is published again),
/// down, messages dropped while it was away, messages on the subscribed topics.
extension GatewayController {
    /// The broker connection is (back) up: what is retained is published again (a broker that
    /// restarted without persistence lost it) — discovery configs, states, adapters, status.
    public func mqttConnected(at now: HostTime) {
        broker.connected = true
        republish(at: now)
    }

    public func mqttDisconnected() {
        broker.connected = false
    }

    /// Messages were dropped from the full queue while the broker was away: reported in the
    /// next gateway status (published now).
    public func mqttDropped(_ count: Int, at now: HostTime) {
        broker.droppedToReport = (broker.droppedToReport ?? 0) + count
        note(.warning, "\(count) message(s) were dropped while the broker was away (queue limit \(configuration.mqtt.queueLimit))")
        publishGatewayStatus(at: now)
    }

    /// A message on a subscribed topic: a command, or Home Assistant coming online.
    public func mqttMessage(_ m: MQTTMessage, at now: HostTime) {
        if m.topic == configuration.mqtt.discoveryPrefix + "/status" {
            if m.text == "online" { republish(at: now) }
            return
        }
        guard let parsed = GatewayCommand.parse(topic: m.topic, payload: m.payload, topics: topics) else { return }
        switch parsed {
        case .success(let c):
            runCommand(.mqtt(c), device: c.device, operation: c.operation, target: c.target, value: c.value,
                       withResponse: c.withResponse, at: now)
        case .failure(let e):
            let level = topics.parseCommand(m.topic)?.characteristic ?? ""
            messages.append(MQTTMessage(topic: topics.reply(TopicLevel.sanitize(e.device)),
                                        text: GatewayReply.failure(e, characteristic: level, time: wallTime())))
        }
    }

    private func republish(at now: HostTime) {
        for a in adapters {
            a.lastStatus = nil
            publishAdapterStatus(a, at: now)
        }
        for d in devices {
            d.lastState = nil
            d.lastAvailable = nil
            publishState(d, at: now)
            if configuration.mqtt.discovery {
                for i in d.quantityTopics.indices { d.quantityTopics[i].discovery = nil }
            }
        }
        publishGatewayStatus(at: now)
    }
}
