import Testing
import Wire
@testable import HostCore

/// A kernel as `KernelHost` sees it: pulls the host's actions, records the management commands
/// and socket requests, and puts an in-memory ATT server behind every link's socket.
final class FakeKernel {
    /// The adapter's address in Read Controller Information.
    static let adapter = BDAddress(string: "00:AA:01:00:00:00") ?? .zero
    var host: KernelHost!
    private var commandRecord: [ManagementCommand] = []
    private var openedRecord: [(LinkID, DeviceAddress, BDAddress, KernelSecurityLevel?)] = []
    private var closedRecord: [LinkID] = []
    private var raisedRecord: [(LinkID, KernelSecurityLevel)] = []
    private var eventRecord: [HostEvent] = []
    var servers: [LinkID: FakeATTServer] = [:]
    var makeServer: () -> FakeATTServer = { GATTFixtures.heartRateServer() }
    var now: HostTime = 1_000

    var commands: [ManagementCommand] { pull(); return commandRecord }
    var opened: [(LinkID, DeviceAddress, BDAddress, KernelSecurityLevel?)] { pull(); return openedRecord }
    var closed: [LinkID] { pull(); return closedRecord }
    /// BT_SECURITY raises the host asked of link sockets.
    var raised: [(LinkID, KernelSecurityLevel)] { pull(); return raisedRecord }
    var events: [HostEvent] { pull(); return eventRecord }

    /// Carries out the host's actions and takes its events, as the runtime does after every input.
    func pull() {
        while true {
            var any = false
            while let a = host.pollAction() {
                any = true
                switch a {
                case let .sendManagement(c): commandRecord.append(c)
                case let .openChannel(link, peer, adapter, security): openedRecord.append((link, peer, adapter, security))
                case let .closeChannel(link): closedRecord.append(link)
                case let .sendATT(link, pdu): servers[link]?.receive(pdu)
                case let .raiseSecurity(link, level): raisedRecord.append((link, level))
                }
            }
            while let e = host.pollEvent() {
                any = true
                eventRecord.append(e)
            }
            if !any { return }
        }
    }

    func clearEvents() {
        pull()
        eventRecord.removeAll()
    }

    /// The kernel's answer to the last command.
    func complete(_ status: ManagementStatus = .success, _ rp: [UInt8] = []) {
        guard let c = commands.last else { Issue.record("no command to answer"); return }
        emit(.commandComplete(c.opcode, status, returnParameters: rp[...]))
    }

    func emit(_ payload: ManagementEvent.Payload, index: UInt16 = 0) {
        host.receiveManagement(ManagementEvent(index: index, payload: payload).encoded[...], at: now)
        pull()
        pump()
    }

    func info(_ current: ManagementSettings) -> [UInt8] {
        ManagementControllerInformation(address: FakeKernel.adapter, bluetoothVersion: 9, manufacturer: 0x3F,
                                        supportedSettings: [.powered, .lowEnergy], currentSettings: current,
                                        classOfDevice: 0, name: "", shortName: "").encoded
    }

    /// Brings the adapter up from powered off.
    func bringUp() {
        host.start(at: now)
        complete(.success, info([.lowEnergy]))
        complete(.success, [0x01, 0x02, 0, 0])
    }

    func connectSocket(_ link: LinkID, mtu: UInt16 = 672, security: KernelSecurityLevel? = nil) {
        servers[link] = makeServer()
        host.channelConnected(link, info: KernelChannelInfo(receiveMTU: mtu, sendMTU: mtu, handle: 0x40, security: security),
                              at: now)
        pump()
    }

    /// Delivers what the servers have for the client until all are quiet.
    func pump() {
        var progress = true
        while progress {
            progress = false
            pull()
            for (link, server) in servers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                while let pdu = server.nextForClient() {
                    progress = true
                    host.receiveATT(pdu[...], on: link, at: now)
                }
            }
        }
    }

    var states: [(LinkID, LinkState)] {
        events.compactMap { if case let .linkState(l, s) = $0 { return (l, s) } else { return nil } }
    }
}

