/// How `writeValue(_:for:type:)` writes: Write Request (answered, `didWriteValueFor`) or Write
/// Command (unanswered, paced by `canSendWriteWithoutResponse`).
public enum CBCharacteristicWriteType: Int, Sendable {
    case withResponse = 0
    case withoutResponse = 1
}
