/// One message of ESPHome's native API: the message type from the frame header (the protobuf
/// message itself does not say what it is) and its encoded body. Both framings carry the same
/// thing, so everything above them handles only this.
public struct APIFrame: Equatable, Sendable {
    public var type: UInt16
    public var payload: [UInt8]

    public init(type: UInt16, payload: [UInt8]) {
        self.type = type
        self.payload = payload
    }
}
