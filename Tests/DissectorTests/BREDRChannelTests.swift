import Testing
import Capture
import Dissector
import Wire

/// BR/EDR channels built from the layouts of Core Spec v5.4 Vol 3, Part A: B-frames (§3.1),
/// the signaling commands of §4.2–§4.11 on CID 0x0001, and links the capture did not see open.
@Suite struct BREDRChannelTests {
    typealias C = CreditChannelTests

    static func signaling(_ commands: [[UInt8]]) -> [UInt8] { C.frame(0x0001, commands.flatMap { $0 }) }

    static func command(_ code: UInt8, _ id: UInt8, _ data: [UInt8]) -> [UInt8] { [code, id, UInt8(data.count), 0] + data }

    /// HCI_Connection_Complete for handle 0x0040, ACL, then a channel to `psm` opened by the
    /// host (SCID 0x0040) and answered by the peer (DCID 0x0481), after a pending response.
    static func opened(psm: UInt16, connectionComplete: Bool = true) -> C.Run {
        let run = C.Run()
        if connectionComplete {
            let event: [UInt8] = [0x03, 11, 0x00, 0x40, 0x00, 0x12, 0x00, 0x00, 0x00, 0x00, 0xF1, 0x01, 0x00]
            _ = run.d.dissect(CaptureRecord(timestampMicros: 1, direction: .controllerToHost, packet: HCIPacket(type: .event, bytes: event[...])))
        }
        _ = run.tx(signaling([command(0x02, 1, C.le16(psm) + C.le16(0x0040))]))
        _ = run.rx(signaling([command(0x03, 1, C.le16(0) + C.le16(0x0040) + C.le16(1) + C.le16(0))]))
        _ = run.rx(signaling([command(0x03, 1, C.le16(0x0481) + C.le16(0x0040) + C.le16(0) + C.le16(0))]))
        return run
    }

    @Test func attOnAPSM0x001FChannelIsDecodedBothWays() {
        let run = Self.opened(psm: 0x001F)
        // A Read Request to the peer's CID, the response back on the host's.
        let request = run.tx(C.frame(0x0481, [0x0A, 0x03, 0x00]))
        let response = run.rx(C.frame(0x0040, [0x0B, 0x48]))
        #expect(request.att?.opcode == 0x0A && request.att?.transport == .brEdr && request.att?.bearer == 0x0040)
        #expect(response.att?.handle == 0x0003 && response.att?.bearer == 0x0040)
        #expect(response.channel == 0x0040 && request.channel == 0x0481)
        #expect(response.fields.value(of: "Channel") == "CID 0x0040 (other end 0x0481), PSM ATT (0x001f), Basic mode, MTU 672 (default)")
        #expect(run.d.statistics.brEdrATTPDUs == 2 && run.d.statistics.transports[LinkID(handle: 0x0040)] == .brEdr)
    }

    @Test func otherPSMsAreNamedWithTheirBytesAndTheMTUTheirOwnerAsked() {
        let run = Self.opened(psm: 0x0001)
        // The peer's Configuration Request (to the host's CID 0x0040) says the peer receives 48;
        // it takes effect once the host accepts it.
        _ = run.rx(Self.signaling([Self.command(0x04, 2, C.le16(0x0040) + C.le16(0) + [0x01, 0x02] + C.le16(48))]))
        let before = run.tx(C.frame(0x0481, [0x06, 0x00]))
        _ = run.tx(Self.signaling([Self.command(0x05, 2, C.le16(0x0481) + C.le16(0) + C.le16(0))]))
        let after = run.tx(C.frame(0x0481, [0x06, 0x00, 0x01]))
        #expect(before.name == "L2CAP SDP" && before.summary == "PSM 0x0001: 2 bytes" && before.att == nil)
        #expect(before.fields.value(of: "Channel")?.hasSuffix("MTU 672 (default)") == true)
        #expect(after.fields.value(of: "Channel")?.hasSuffix("MTU 48") == true)
        #expect(after.fields.value(of: "Data") == "06 00 01")
    }

    @Test func aSecondAVDTPChannelIsTheMediaTransport() {
        let run = Self.opened(psm: 0x0019)
        _ = run.tx(Self.signaling([Self.command(0x02, 5, C.le16(0x0019) + C.le16(0x0041))]))
        _ = run.rx(Self.signaling([Self.command(0x03, 5, C.le16(0x0482) + C.le16(0x0041) + C.le16(0) + C.le16(0))]))
        #expect(run.tx(C.frame(0x0481, [0x00])).name == "L2CAP AVDTP")
        #expect(run.tx(C.frame(0x0482, [0x80, 0x60])).name == "L2CAP AVDTP media")
    }

    @Test func severalCommandsInOneFrameAndABrokenOneAreShown() {
        let run = C.Run()
        let two = run.tx(Self.signaling([Self.command(0x0A, 1, C.le16(2)), Self.command(0x0A, 2, C.le16(3))]))
        #expect(two.name == "L2CAP Signaling" && two.summary == "Information Request, Information Request" && two.errors.isEmpty)
        #expect(two.fields.value(of: "Information Request") == "ident 1 Extended features supported")
        // A Connection Request cut short: an error that names the field, never a trap.
        let broken = run.tx(C.frame(0x0001, [0x02, 3, 4, 0, 0x19, 0x00]))
        #expect(broken.errors.first?.hasPrefix("L2CAP signaling:") == true)
        #expect(broken.fields.value(of: "Data") == "02 03 04 00 19 00")
    }

    /// A link opened before the capture began: its signaling says it is BR/EDR, and a channel
    /// whose set-up is missing says what is unknown.
    @Test func aLinkWithoutItsConnectionEventFallsBackAndNamesWhatIsUnknown() {
        let unknown = C.Run()
        // No event, no signaling: CID 0x0041 could be LE or BR/EDR; 0x0481 only BR/EDR.
        let low = unknown.rx(C.frame(0x0041, [1, 2, 3]))
        #expect(low.summary == "3 bytes (link type and channel set-up not in the capture: PSM or SPSM unknown, not decoded)")
        let high = unknown.rx(C.frame(0x0481, [1, 2]))
        #expect(high.summary == "2 bytes (channel set-up not in the capture: PSM unknown, not decoded)")
        // The channel set up in the capture on such a link is followed like any other.
        let run = Self.opened(psm: 0x001F, connectionComplete: false)
        #expect(run.rx(C.frame(0x0040, [0x1B, 0x10, 0x00, 0x00, 0x48])).att?.transport == .brEdr)
        #expect(run.d.statistics.transports[LinkID(handle: 0x0040)] == .brEdr)
        // After a Disconnection Response the CIDs are free again.
        _ = run.tx(Self.signaling([Self.command(0x06, 9, C.le16(0x0481) + C.le16(0x0040))]))
        _ = run.rx(Self.signaling([Self.command(0x07, 9, C.le16(0x0481) + C.le16(0x0040))]))
        #expect(run.rx(C.frame(0x0040, [0x1B, 0x10, 0x00])).summary.contains("PSM unknown"))
    }
}
