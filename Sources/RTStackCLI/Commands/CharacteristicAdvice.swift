import HostCore
import Wire

/// Failures about the characteristic a command names, found in the peer's discovered database:
/// each says what the peer has instead, since that is what the user picks from next.
enum CharacteristicAdvice {
    /// At most this many characteristics are listed; `rtstack gatt` shows the rest.
    static let listed = 12

    /// `UUID` is not a characteristic of the peer.
    static func missing(_ uuid: BluetoothUUID, in db: GATTDatabase, peer: String) -> CommandFailure {
        let all = db.services.flatMap(\.characteristics)
        return CommandFailure(
            cause: "the peer \(peer) has no characteristic \(GattCommand.uuidText(uuid))",
            remedy: (all.isEmpty ? "its database has no characteristics at all" : "it has " + list(all))
                + "; rtstack gatt \(peer) shows them with their handles and properties")
    }

    /// `subscribe` to a characteristic whose properties allow neither notifications nor
    /// indications (or not the kind `--indicate` asked for).
    static func notSubscribable(_ c: GATTCharacteristic, indicate: Bool, in db: GATTDatabase, peer: String) -> CommandFailure? {
        let wanted = indicate ? c.canIndicate : (c.canNotify || c.canIndicate)
        guard !wanted else { return nil }
        let props = CharacteristicProperties(rawValue: c.properties).names.joined(separator: ", ")
        let cause = "\(GattCommand.uuidText(c.uuid)) at \(Hex.number(c.valueHandle, width: 4)) "
            + (indicate ? "does not indicate" : "neither notifies nor indicates") + " (its properties: \(props.isEmpty ? "none" : props))"
        if indicate, c.canNotify {
            return CommandFailure(cause: cause, remedy: "leave out --indicate: it notifies")
        }
        let others = db.services.flatMap(\.characteristics).filter { indicate ? $0.canIndicate : ($0.canNotify || $0.canIndicate) }
        var remedy = c.canRead ? "read it instead (rtstack read \(peer) \(c.uuid.string))" : "it cannot be subscribed to"
        remedy += others.isEmpty ? "; the peer has no characteristic that \(indicate ? "indicates" : "notifies or indicates")"
            : "; the ones that \(indicate ? "indicate" : "notify or indicate") are " + list(others)
        return CommandFailure(cause: cause, remedy: remedy)
    }

    /// "Heart Rate Measurement (2A37) at 0x0012, …, and 3 more".
    static func list(_ characteristics: [GATTCharacteristic]) -> String {
        let shown = characteristics.prefix(listed).map { "\(GattCommand.uuidText($0.uuid)) at \(Hex.number($0.valueHandle, width: 4))" }
        let more = characteristics.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? ", and \(more) more" : "")
    }
}
