import RunTracker
import Sensors
import Wire

/// The measurements a recording holds, read from its packets alone, independently of the host
/// core: which sensor an advertiser is comes from the service in its advertising data, which
/// peer a connection handle is from the connection complete events, and every ATT Handle
/// Value Notification on a sensor's link is decoded as that sensor's measurement (the session
/// subscribes to one characteristic per sensor, and the test world notifies subscribers only).
struct RecordedMeasurement: Equatable, CustomStringConvertible {
    var role: SensorRole
    var measurement: DecodedSensorValue
    /// Index of the packet in the recording.
    var index: Int

    var description: String { "#\(index) \(role.rawValue) \(measurement)" }

    static func all(in packets: [SessionReplay.Packet]) -> [RecordedMeasurement] {
        var roles: [BDAddress: SensorRole] = [:]
        var peers: [UInt16: BDAddress] = [:]
        var reassembler = ACLReassembler()
        var out: [RecordedMeasurement] = []

        func advertiser(_ address: BDAddress, _ data: ArraySlice<UInt8>) {
            let ad = AdvertisingData(data)
            for role in SensorRole.allCases where ad.advertisesService(role.advertisedService) {
                roles[address] = role
            }
        }

        for (index, p) in packets.enumerated() where p.direction == .controllerToHost {
            switch p.packet.type {
            case .event:
                guard let event = try? HCIEvent.decode(p.packet.bytes) else { continue }
                switch event {
                case .le(.advertisingReport(let e)):
                    for r in e.reports { advertiser(r.address, r.data) }
                case .le(.extendedAdvertisingReport(let e)):
                    for r in e.reports { advertiser(r.address, r.data) }
                case .le(.connectionComplete(let e)) where e.status == .success:
                    peers[e.connectionHandle] = e.peerAddress
                case .le(.enhancedConnectionCompleteV1(let e)) where e.status == .success:
                    peers[e.connectionHandle] = e.peerAddress
                case .le(.enhancedConnectionCompleteV2(let e)) where e.status == .success:
                    peers[e.connectionComplete.connectionHandle] = e.peerAddress
                case .disconnectionComplete(let e) where e.status == .success:
                    peers[e.connectionHandle] = nil
                    reassembler.reset(handle: e.connectionHandle)
                default:
                    break
                }
            case .acl:
                guard let acl = try? ACLPacket(p.packet), let frame = reassembler.feed(acl).frame,
                      frame.channelID == .att, let pdu = try? ATTPDU.decode(frame.payload),
                      case .handleValueNotification(let hv) = pdu,
                      let peer = peers[frame.handle], let role = roles[peer],
                      let m = SensorValueDecoder.decode(uuid: role.measurementCharacteristic, value: hv.value),
                      !m.isMalformed else { continue }
                out.append(RecordedMeasurement(role: role, measurement: m, index: index))
            default:
                continue
            }
        }
        return out
    }
}
