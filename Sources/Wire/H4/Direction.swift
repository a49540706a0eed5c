/// Which way a packet crossed the HCI boundary. btmon and Wireshark show host→controller as
/// `<` ("sent") and controller→host as `>` ("received").
public enum Direction: UInt8, Sendable, Hashable {
    case hostToController = 0
    case controllerToHost = 1

    public var arrow: String { self == .hostToController ? "<" : ">" }
    public var jsonName: String { self == .hostToController ? "tx" : "rx" }
}
