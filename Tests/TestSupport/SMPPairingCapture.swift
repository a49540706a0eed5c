import Capture
import Foundation
import Wire

/// A legacy pairing as the central sees it, with encryption and key distribution, in a capture
/// of its own: the dissector's SMP tests read its records, the CLI's run `rtstack decode` on its
/// file. The keys are patterns, so a test can look for them in what was printed.
public enum SMPPairingCapture {
    public static let ltk: [UInt8] = (0..<16).map { 0xA0 &+ UInt8($0) }
    public static let irk: [UInt8] = (0..<16).map { 0x50 &+ UInt8($0) }
    public static let csrk: [UInt8] = (0..<16).map { 0x30 &+ UInt8($0) }

    public static func acl(_ smp: [UInt8], handle: UInt16 = 0x40) -> [UInt8] {
        let l2cap: [UInt8] = [UInt8(smp.count), 0, 0x06, 0x00] + smp
        return [UInt8(handle & 0xFF), 0x20 | UInt8(handle >> 8), UInt8(l2cap.count), 0] + l2cap
    }

    /// A legacy pairing as the central sees it, then encryption and key distribution.
    public static func records() -> [CaptureRecord] {
        var t: Int64 = 1_700_000_000_000_000
        var out: [CaptureRecord] = []
        func add(_ type: H4PacketType, _ dir: Direction, _ bytes: [UInt8]) {
            t += 1000
            out.append(CaptureRecord(timestampMicros: t, direction: dir, packet: HCIPacket(type: type, bytes: bytes[...])))
        }
        // LE Connection Complete, handle 0x0040, peer C1:00:00:00:00:01 random.
        add(.event, .controllerToHost, [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x01, 0, 0, 0, 0, 0xC1,
                                        0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00])
        // §3.5.1 Pairing Request: NoInputNoOutput, no OOB, Bonding, key size 16, keys EncKey|IdKey both ways.
        add(.acl, .hostToController, acl([0x01, 0x03, 0x00, 0x01, 0x10, 0x03, 0x03]))
        // §3.5.2 Pairing Response.
        add(.acl, .controllerToHost, acl([0x02, 0x03, 0x00, 0x01, 0x10, 0x03, 0x03]))
        // §3.5.3 / §3.5.4 Confirm and Random both ways.
        add(.acl, .hostToController, acl([0x03] + [UInt8](repeating: 0x11, count: 16)))
        add(.acl, .controllerToHost, acl([0x03] + [UInt8](repeating: 0x22, count: 16)))
        add(.acl, .hostToController, acl([0x04] + [UInt8](repeating: 0x33, count: 16)))
        add(.acl, .controllerToHost, acl([0x04] + [UInt8](repeating: 0x44, count: 16)))
        // §7.8.24 LE Enable Encryption: handle, Rand 0, EDIV 0, the STK.
        add(.command, .hostToController, [0x19, 0x20, 0x1C, 0x40, 0x00] + [UInt8](repeating: 0, count: 10) + ltk)
        // §7.7.8 Encryption Change v1: success, handle 0x0040, on.
        add(.event, .controllerToHost, [0x08, 0x04, 0x00, 0x40, 0x00, 0x01])
        // §3.6.2–§3.6.6 key distribution from the peer: LTK, EDIV/Rand, IRK, identity address, CSRK.
        add(.acl, .controllerToHost, acl([0x06] + ltk))
        add(.acl, .controllerToHost, acl([0x07, 0x34, 0x12] + [1, 2, 3, 4, 5, 6, 7, 8]))
        add(.acl, .controllerToHost, acl([0x08] + irk))
        add(.acl, .controllerToHost, acl([0x09, 0x01, 0x01, 0, 0, 0, 0, 0xC1]))
        add(.acl, .controllerToHost, acl([0x0A] + csrk))
        // §7.7.39 Encryption Key Refresh Complete, §7.7.8 Encryption Change v2 (key size 16),
        // §7.7.65.5 LE Long Term Key Request, §7.8.25 its reply with the LTK.
        add(.event, .controllerToHost, [0x30, 0x03, 0x00, 0x40, 0x00])
        add(.event, .controllerToHost, [0x59, 0x05, 0x00, 0x40, 0x00, 0x01, 0x10])
        add(.event, .controllerToHost, [0x3E, 0x0D, 0x05, 0x40, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 0x34, 0x12])
        add(.command, .hostToController, [0x1A, 0x20, 0x12, 0x40, 0x00] + ltk)
        // §3.5.5 Pairing Failed: Confirm Value Failed (0x04); a PDU one octet short.
        add(.acl, .controllerToHost, acl([0x05, 0x04]))
        add(.acl, .controllerToHost, acl([0x03] + [UInt8](repeating: 0x11, count: 15)))
        return out
    }

    public static func capture() throws -> String {
        var file = BtsnoopFormat.fileHeader()
        for r in records() { try BtsnoopFormat.appendRecord(r, to: &file) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-smp-\(UUID().uuidString).btsnoop").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        return path
    }
}
