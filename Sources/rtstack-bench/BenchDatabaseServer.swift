import HostCore
import Wire

/// The ATT server side of GATT discovery over one small database, for the benchmarks whose
/// client discovers (CoreBluetooth): Read By Group Type for primary services, Find By Type
/// Value, Read By Type for characteristic declarations, Find Information (Core Spec v5.4
/// Vol 3, Part F, §3.4.3–§3.4.4; Part G, §4.4–§4.7). Each answer holds one entry; the
/// client asks again past it and gets Attribute Not Found, which ends its procedure.
struct BenchDatabaseServer {
    let database: GATTDatabase

    /// The response to one ATT request PDU; nil for a request it does not answer.
    func answer(_ pdu: [UInt8]) -> [UInt8]? {
        guard pdu.count >= 5 else { return nil }
        let opcode = pdu[0]
        let start = UInt16(pdu[1]) | UInt16(pdu[2]) << 8
        let end = UInt16(pdu[3]) | UInt16(pdu[4]) << 8
        let type = pdu.count >= 7 ? UInt16(pdu[5]) | UInt16(pdu[6]) << 8 : 0
        func le(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func notFound() -> [UInt8] { [0x01, opcode] + le(start) + [0x0A] }
        switch opcode {
        case 0x10 where type == 0x2800:
            guard let s = database.services.first(where: { $0.startHandle >= start && $0.startHandle <= end }) else { return notFound() }
            let uuid = s.uuid.attBytes
            return [0x11, UInt8(4 + uuid.count)] + le(s.startHandle) + le(s.endHandle) + uuid
        case 0x06:
            guard let s = database.services.first(where: { $0.startHandle >= start && $0.startHandle <= end && $0.uuid.attBytes == Array(pdu[7...]) })
            else { return notFound() }
            return [0x07] + le(s.startHandle) + le(s.endHandle)
        case 0x08 where type == 0x2803:
            let all = database.services.flatMap(\.characteristics)
            guard let c = all.first(where: { $0.declarationHandle >= start && $0.declarationHandle <= end }) else { return notFound() }
            let uuid = c.uuid.attBytes
            return [0x09, UInt8(5 + uuid.count)] + le(c.declarationHandle) + [c.properties] + le(c.valueHandle) + uuid
        case 0x04:
            let all = database.services.flatMap(\.characteristics).flatMap(\.descriptors)
            guard let d = all.first(where: { $0.handle >= start && $0.handle <= end }), let short = d.uuid.uuid16 else { return notFound() }
            return [0x05, 0x01] + le(d.handle) + le(short)
        default:
            return notFound()
        }
    }
}
