import HostCore
import RunTracker
import Wire

/// One line per packet for a divergence report: what it is (decoded with Wire, the way
/// `rtstack decode` names things) and its bytes.
enum PacketText {
    static func describe(_ packet: HCIPacket) -> String {
        headline(packet) + " [" + Hex.spaced(packet.bytes) + "]"
    }

    static func headline(_ packet: HCIPacket) -> String {
        switch packet.type {
        case .command:
            guard let c = try? HCICommandPacket(packet) else { return "CMD (malformed)" }
            var text = "CMD " + c.opcode.description
            if case .success(let decoded)? = HCICommandCatalog.decodeParameters(opcode: c.opcode, c.parameters) {
                text += ": " + decoded.summary
            }
            return text
        case .event:
            guard let e = try? HCIEvent.decode(packet.bytes) else { return "EVT (malformed)" }
            return "EVT " + e.code.description + ": " + e.summary
        case .acl:
            guard let a = try? ACLPacket(packet) else { return "ACL (malformed)" }
            var text = "ACL h=\(a.handle)"
            if a.packetBoundary.isStart, a.data.count >= L2CAPBasicHeader.size,
               let pdu = try? ATTPDU.decode(a.data.dropFirst(L2CAPBasicHeader.size)),
               let header = try? L2CAPBasicHeader(bytes: a.data.prefix(L2CAPBasicHeader.size)), header.channelID == .att {
                text += " ATT " + pdu.name + ": " + pdu.summary
            }
            return text
        case .sco, .iso:
            return packet.type.name
        }
    }

    static func time(_ t: HostTime) -> String {
        let micros = t / 1000
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction + " s"
    }
}
