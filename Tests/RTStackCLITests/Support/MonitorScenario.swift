import Foundation
import Capture
import Wire

/// A Linux monitor capture built frame by frame from the layouts of hci_mon.h (New Index:
/// type, bus, BD_ADDR, name[8]; Index Info: BD_ADDR, manufacturer; User Logging: priority,
/// identifier length, identifier, message; Control Open: cookie, format, version, revision,
/// flags, command length, command) and the HCI packets of two adapters that both use
/// connection handle 0x0040 — as btvirt's do.
enum MonitorScenario {
    static let heartPeer = "C1:00:00:00:00:01"   // on hci0
    static let speedPeer = "C2:00:00:00:00:02"   // on hci1
    static let advertiser = "C3:00:00:00:00:03"  // advertising, seen by hci1

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func address(_ s: String) -> [UInt8] { BDAddress(string: s)!.bytes }

    static func connectionComplete(handle: UInt16, peer: String) -> [UInt8] {
        // LE Meta (0x3E), LE Connection Complete (0x01): status, handle, role central, peer
        // address type random, peer address, interval 24, latency 0, timeout 72, accuracy.
        let params: [UInt8] = [0x01, 0x00] + le16(handle) + [0x00, 0x01] + address(peer) + le16(24) + le16(0) + le16(72) + [0x00]
        return [0x3E, UInt8(params.count)] + params
    }

    static func notification(handle: UInt16, attribute: UInt16, value: [UInt8]) -> [UInt8] {
        let att: [UInt8] = [0x1B] + le16(attribute) + value
        let l2cap = le16(UInt16(att.count)) + le16(0x0004) + att
        return le16(handle | 0x2000) + le16(UInt16(l2cap.count)) + l2cap
    }

    static func advertisingReport(_ who: String, rssi: Int8, name: String) -> [UInt8] {
        let ad: [UInt8] = [UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8)
        let params: [UInt8] = [0x02, 0x01, 0x00, 0x01] + address(who) + [UInt8(ad.count)] + ad + [UInt8(bitPattern: rssi)]
        return [0x3E, UInt8(params.count)] + params
    }

    /// The frames, in order.
    static func frames() -> [MonitorFrame] {
        var t: Int64 = 1_700_000_000_000_000
        var out: [MonitorFrame] = []
        func add(_ opcode: MonitorOpcode, _ index: UInt16, _ payload: [UInt8]) {
            t += 1000
            out.append(MonitorFrame(opcode: opcode, adapterIndex: index, timestampMicros: t, payload: payload[...]))
        }
        let name0 = Array("hci0".utf8) + [0, 0, 0, 0]
        let name1 = Array("hci1".utf8) + [0, 0, 0, 0]
        add(.systemNote, MonitorFrame.noAdapter, Array("Bluetooth subsystem version 2.22".utf8) + [0])
        add(.newIndex, 0, [0x00, 0x00] + address("00:AA:01:00:00:01") + name0)
        add(.openIndex, 0, [])
        add(.indexInfo, 0, address("00:AA:01:00:00:01") + le16(0x05F1))
        add(.newIndex, 1, [0x00, 0x00] + address("00:AA:01:01:00:01") + name1)
        add(.userLogging, 0, [0x06, 11] + Array("bluetoothd".utf8) + [0] + Array("Starting SDP server".utf8) + [0])
        // bluetoothd opens the management channel (format 2, version 1.22, privileged) and
        // powers hci0 on: Set Powered (0x0005), then Command Complete (0x0001) for it.
        add(.controlOpen, MonitorFrame.noAdapter, le32(0x1234) + le16(2) + [1] + le16(22) + le32(1) + [11]
                + Array("bluetoothd".utf8) + [0])
        add(.controlCommand, 0, le32(0x1234) + le16(0x0005) + [0x01])
        add(.controlEvent, 0, le32(0x1234) + le16(0x0001) + le16(0x0005) + [0x00] + le32(0x0001))
        // hci0: a link to the heart sensor; hci1: a link to the speed sensor, same handle.
        add(.eventPacket, 0, connectionComplete(handle: 0x40, peer: heartPeer))
        add(.eventPacket, 1, connectionComplete(handle: 0x40, peer: speedPeer))
        for bpm in [72, 73, 74] as [UInt8] {
            add(.aclRXPacket, 0, notification(handle: 0x40, attribute: 0x0012, value: [0x00, bpm]))
            add(.aclRXPacket, 1, notification(handle: 0x40, attribute: 0x0021, value: [0x01, 0x02, 0x03, 0x04]))
            add(.eventPacket, 1, advertisingReport(advertiser, rssi: Int8(-70) + Int8(bpm - 72), name: "Beacon"))
        }
        add(.controlClose, MonitorFrame.noAdapter, le32(0x1234))
        add(.closeIndex, 1, [])
        add(.deleteIndex, 1, [])
        return out
    }

    /// The scenario as a btsnoop 2001 file.
    static func writeCapture(suffix: String = ".btsnoop") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-monitor-\(UUID().uuidString)\(suffix)").path
        let writer = try MonitorCaptureWriter(path: path)
        for f in frames() { try writer.write(f) }
        try writer.close()
        return path
    }
}
