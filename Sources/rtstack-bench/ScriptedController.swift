import HostCore
import TestSupport
import Wire

/// The controller side of the benchmarks: answers the host's bring-up commands, reports the
/// three sensors advertising (with a scan response) when a scan starts, completes each LE
/// Create Connection at once with the next Connection_Handle, answers ATT requests (Exchange
/// MTU, the discovery of each sensor's `BenchWorkload` database, Write Request for a CCCD)
/// and returns ACL credits. It works on H4 bytes in
/// both directions so that the same script serves the sans-I/O core (packets handed over in
/// memory) and a real transport (a TCP loopback socket).
///
/// Everything here happens before the measured part; the measured part is the notification
/// bytes of `BenchWorkload`, which the controller does not touch.
final class ScriptedController {
    /// H4 bytes for the host, appended by `handle`; the caller takes them.
    var outbox: [UInt8] = []
    private var framer = H4Framer(configuration: .hostToController)
    /// 64 LE buffers of 251 bytes: credits never limit the measured notifications' answers.
    private let profile: ControllerProfile = {
        var p = ControllerProfile()
        p.hciVersion = 0x0B
        p.leBufferCount = 64
        return p
    }()
    private var nextHandle: UInt16 = 0x0040
    /// Connection handle of each connected peer, in connection order.
    private(set) var handles: [DeviceAddress: UInt16] = [:]
    /// CCCD writes answered (a subscription becomes live with the answer).
    private(set) var cccdWrites = 0

    /// Bytes the host wrote to its transport.
    func feed(_ bytes: some Collection<UInt8>) {
        framer.feed(bytes)
        while framer.withNext({ output in
            if case .packet(let p) = output { handle(p) }
            return true
        }) != nil {}
    }

    /// One packet from the host.
    func handle(_ packet: HCIPacket) {
        switch packet.type {
        case .command:
            guard let c = try? HCICommandPacket(packet) else { return }
            command(c)
        case .acl:
            guard let a = try? ACLPacket(packet) else { return }
            acl(a)
        default:
            break
        }
    }

    private func emit(_ event: HCIEvent) { outbox.append(contentsOf: event.h4Bytes) }

    private func complete(_ op: HCIOpcode, _ parameters: [UInt8]) {
        emit(.commandComplete(CommandCompleteEvent(numHCICommandPackets: 1, commandOpcode: op, returnParameters: parameters)))
    }

    private func complete<P: WireCodable>(_ op: HCIOpcode, _ parameters: P) { complete(op, parameters.encoded) }

    private func command(_ c: HCICommandPacket) {
        let op = c.opcode
        if let info = profile.answer(op) {
            emit(info)
            return
        }
        switch op {
        case .reset:
            complete(op, StatusReturnParameters())
        case .leCreateConnection, .leExtendedCreateConnection:
            let peer = ControllerProfile.createTarget(c)
            emit(.commandStatus(CommandStatusEvent(status: .success, numHCICommandPackets: 1, commandOpcode: op)))
            guard let peer else { return }
            let handle = nextHandle
            nextHandle &+= 1
            handles[peer] = handle
            emit(.le(.connectionComplete(LEConnectionCompleteEvent(
                status: .success, connectionHandle: handle, role: .central, peerAddressType: peer.type,
                peerAddress: peer.address, connectionInterval: 6, peripheralLatency: 0, supervisionTimeout: 400))))
        case .disconnect:
            emit(.commandStatus(CommandStatusEvent(status: .success, numHCICommandPackets: 1, commandOpcode: op)))
            if let d = try? c.decode(Disconnect.self) {
                emit(.disconnectionComplete(DisconnectionCompleteEvent(connectionHandle: d.connectionHandle,
                                                                       reason: .connectionTerminatedByLocalHost)))
            }
        case .leSetScanEnable:
            complete(op, StatusReturnParameters())
            if c.parameters.first == 0x01 { advertise() }
        case .leConnectionUpdate, .leReadRemoteFeatures:
            emit(.commandStatus(CommandStatusEvent(status: .success, numHCICommandPackets: 1, commandOpcode: op)))
        default:
            // Set Event Mask, LE Set Scan Parameters/Enable, …: plain success.
            complete(op, StatusReturnParameters())
        }
    }

    /// ATT over L2CAP CID 0x0004 in one ACL packet (the host's PDUs are small). Core Spec v5.4
    /// Vol 3, Part F, §3.4.2.2 (Exchange MTU Response), §3.4.5.2 (Write Response), §3.4.1.1
    /// (Error Response for anything else).
    private func acl(_ a: ACLPacket) {
        emit(.numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: [
            .init(connectionHandle: a.handle, numCompletedPackets: 1)])))
        let d = Array(a.data)
        guard d.count >= 5, d[2] == 0x04, d[3] == 0x00 else { return }
        let opcode = d[4]
        let reply: [UInt8]
        switch opcode {
        case 0x02:
            reply = [0x03, 0xF7, 0x00]
        case 0x12:
            cccdWrites += 1
            reply = [0x13]
        case 0x04, 0x06, 0x08, 0x10:
            let sensor = BenchWorkload.sensors.first { handles[$0.address] == a.handle }
            reply = sensor.flatMap { BenchDatabaseServer(database: $0.database).answer(Array(d[4...])) }
                ?? [0x01, opcode, d.count >= 7 ? d[5] : 0, d.count >= 7 ? d[6] : 0, 0x0A]
        case 0x52, 0x1B, 0x1D, 0x1E:
            return
        default:
            let handle0: UInt8 = d.count >= 7 ? d[5] : 0
            let handle1: UInt8 = d.count >= 7 ? d[6] : 0
            reply = [0x01, opcode, handle0, handle1, 0x06]
        }
        outbox.append(contentsOf: BenchWorkload.aclH4(handle: a.handle, att: reply))
    }

    /// One ADV_IND (flags, the measurement service) and its SCAN_RSP (the name) per sensor
    /// (Core Spec v5.4 Vol 4, Part E, §7.7.65.2).
    private func advertise() {
        for (i, sensor) in BenchWorkload.sensors.enumerated() {
            let uuid = sensor.role.measurementService
            let list: [UInt8] = uuid.uuid16.map { [0x03, 0x03, UInt8($0 & 0xFF), UInt8($0 >> 8)] }
                ?? [0x11, 0x07] + uuid.littleEndianBytes128
            let name = Array("Bench \(i + 1)".utf8)
            for (type, data) in [(LEAdvertisingEventType.advInd, [0x02, 0x01, 0x06] + list),
                                 (.scanRsp, [UInt8(name.count + 1), 0x09] + name)] {
                emit(.le(.advertisingReport(LEAdvertisingReportEvent(reports: [LEAdvertisingReport(
                    eventType: type, addressType: sensor.address.type, address: sensor.address.address, data: data, rssi: -40)]))))
            }
        }
    }
}
