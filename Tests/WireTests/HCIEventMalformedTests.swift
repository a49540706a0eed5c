import Testing
import TestSupport
@testable import Wire

/// Bytes a controller (or a damaged capture) may send that contradict the layouts of Core
/// Spec v5.4 Vol 4, Part E, §5.4.4 and §7.7: each must become a WireError, never a trap.
struct MalformedVector: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    var testDescription: String { name }

    init(_ name: String, _ bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

let malformedVectors: [MalformedVector] = [
    MalformedVector("empty", []),
    // §5.4.4: the header alone is two bytes.
    MalformedVector("code only", [0x0E]),
    // §5.4.4: Parameter_Total_Length 5 with 3 bytes present.
    MalformedVector("declared length overruns", [0x0E, 0x05, 0x01, 0x03, 0x0C]),
    MalformedVector("declared length 255, nothing present", [0xFF, 0xFF]),
    // §7.7.14: Command Complete needs Num_HCI_Command_Packets and Command_Opcode.
    MalformedVector("Command Complete too short", [0x0E, 0x02, 0x01, 0x03]),
    // §7.7.15: Command Status is 4 bytes.
    MalformedVector("Command Status too short", [0x0F, 0x03, 0x00, 0x01, 0x0D]),
    // §7.7.5: Disconnection Complete without Reason.
    MalformedVector("Disconnection Complete too short", [0x05, 0x03, 0x00, 0x40, 0x00]),
    // §7.7.19: Num_Handles 2 but only one pair present.
    MalformedVector("Number Of Completed Packets count overruns", [0x13, 0x05, 0x02, 0x40, 0x00, 0x01, 0x00]),
    MalformedVector("Number Of Completed Packets count 255", [0x13, 0x05, 0xFF, 0x40, 0x00, 0x01, 0x00]),
    MalformedVector("Number Of Completed Packets half a pair", [0x13, 0x03, 0x01, 0x40, 0x00]),
    MalformedVector("Number Of Completed Packets empty", [0x13, 0x00]),
    // §7.7.8: Encryption Change [v2] without Encryption_Key_Size.
    MalformedVector("Encryption Change v2 too short", [0x59, 0x04, 0x00, 0x40, 0x00, 0x01]),
    MalformedVector("Hardware Error empty", [0x10, 0x00]),
    // §7.7.65: an LE Meta event needs at least its Subevent_Code.
    MalformedVector("zero-length LE Meta", [0x3E, 0x00]),
    // §7.7.65.1: LE Connection Complete one byte short (no Central_Clock_Accuracy).
    MalformedVector("LE Connection Complete too short",
                    [0x3E, 0x12, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                     0x18, 0x00, 0x00, 0x00, 0x2A, 0x00]),
    // §7.7.65.1: a successful connection with reserved Peer_Address_Type 0x05.
    MalformedVector("LE Connection Complete reserved address type",
                    [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x05, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                     0x18, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00]),
    // §7.7.65.2: Data_Length 31 with 4 bytes left in the event.
    MalformedVector("advertising report data length overruns",
                    [0x3E, 0x0F, 0x02, 0x01, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0x1F, 0x02, 0x01, 0x06, 0xC4]),
    // §7.7.65.2: the data fits but leaves no room for RSSI.
    MalformedVector("advertising report without RSSI",
                    [0x3E, 0x0E, 0x02, 0x01, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0x03, 0x02, 0x01, 0x06]),
    // §7.7.65.2: Num_Reports 2 with one report present.
    MalformedVector("advertising report count overruns",
                    [0x3E, 0x0F, 0x02, 0x02, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0x03, 0x02, 0x01, 0x06, 0xC4]),
    // §7.7.65.2: Address_Type 0x07 is reserved.
    MalformedVector("advertising report reserved address type",
                    [0x3E, 0x0F, 0x02, 0x01, 0x00, 0x07, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0x03, 0x02, 0x01, 0x06, 0xC4]),
    MalformedVector("advertising report without Num_Reports", [0x3E, 0x01, 0x02]),
    // §7.7.65.13: extended report whose Data_Length (0x10) overruns.
    MalformedVector("extended advertising report data length overruns",
                    [0x3E, 0x1D, 0x0D, 0x01, 0x13, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                     0x01, 0x00, 0xFF, 0x7F, 0xC4, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                     0x10, 0x02, 0x01, 0x06]),
    // §7.7.65.11: directed report cut inside Direct_Address.
    MalformedVector("directed advertising report too short",
                    [0x3E, 0x0E, 0x0B, 0x01, 0x01, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0x01, 0xAA, 0xBB, 0xCC]),
    // §7.7.65.10: v2 without Sync_Handle.
    MalformedVector("LE Enhanced Connection Complete v2 too short",
                    [0x3E, 0x20, 0x29, 0x00, 0x40, 0x00, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                     0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                     0x18, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00, 0xFF]),
]

@Suite struct HCIEventMalformedTests {
    @Test(arguments: malformedVectors)
    func throwsWireError(_ v: MalformedVector) {
        #expect(throws: WireError.self) { try HCIEvent.decode(v.bytes) }
    }

    @Test func overrunIsReportedAsMalformed() {
        #expect(throws: WireError.malformed(
            "Command Complete event: Parameter_Total_Length 5 overruns the 3 byte(s) present")) {
            try HCIEvent.decode([0x0E, 0x05, 0x01, 0x03, 0x0C])
        }
    }

    @Test func completedPacketsOverrunNamesTheCount() {
        #expect(throws: WireError.malformed("Num_Handles 2 needs 8 bytes, 4 present")) {
            try HCIEvent.decode([0x13, 0x05, 0x02, 0x40, 0x00, 0x01, 0x00])
        }
    }

    @Test func advertisingDataOverrunNamesTheField() {
        #expect(throws: WireError.truncated(field: "Data", needed: 31, available: 4)) {
            try HCIEvent.decode([0x3E, 0x0F, 0x02, 0x01, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                                 0x1F, 0x02, 0x01, 0x06, 0xC4])
        }
    }

    @Test func zeroLengthLEMetaNamesTheSubeventCode() {
        #expect(throws: WireError.truncated(field: "Subevent_Code", needed: 1, available: 0)) {
            try HCIEvent.decode([0x3E, 0x00])
        }
    }

    @Test func bytesAfterTheDeclaredLengthAreIgnored() throws {
        // Vol 4, Part E, §5.4.4: the event ends where Parameter_Total_Length says.
        let event = try HCIEvent.decode([0x0F, 0x04, 0x00, 0x01, 0x0D, 0x20, 0xAA, 0xBB])
        #expect(event == .commandStatus(CommandStatusEvent(commandOpcode: HCIOpcode(rawValue: 0x200D))))
        // Nor may the reader of a variable-length event take bytes beyond the declared length.
        let cc = try HCIEvent.decode([0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00, 0xEE])
        #expect(cc == .commandComplete(CommandCompleteEvent(commandOpcode: HCIOpcode(rawValue: 0x0C03), returnParameters: [0x00])))
    }

    @Test func longerParametersThanTheLayoutAreAccepted() throws {
        // A newer specification may append parameters; receivers ignore what they do not know.
        let event = try HCIEvent.decode([0x05, 0x05, 0x00, 0x40, 0x00, 0x13, 0xFF])
        #expect(event == .disconnectionComplete(DisconnectionCompleteEvent(connectionHandle: 0x0040,
                                                                           reason: HCIStatus(rawValue: 0x13))))
    }

    @Test func reservedHandleBitsAreIgnored() throws {
        // Vol 4, Part E, §5.4.2: Connection_Handle is 12 bits.
        let event = try HCIEvent.decode([0x05, 0x04, 0x00, 0x40, 0x30, 0x13])
        guard case .disconnectionComplete(let d) = event else {
            Issue.record("not Disconnection Complete")
            return
        }
        #expect(d.connectionHandle == 0x0040)
    }

    @Test func failedConnectionWithReservedAddressTypeStillArrives() throws {
        // §7.7.65.1: with Status ≠ 0 the other fields mean nothing; the failure must reach the host.
        let event = try HCIEvent.decode([0x3E, 0x13, 0x01, 0x02, 0x00, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00,
                                         0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        guard case .le(.connectionComplete(let c)) = event else {
            Issue.record("not LE Connection Complete")
            return
        }
        #expect(c.status == HCIStatus(rawValue: 0x02))
    }

    @Test(arguments: eventVectors)
    func everyTruncationOfAValidEventThrowsOrDecodes(_ v: EventVector) {
        // Cut each valid vector at every length, with the length byte kept and with it fixed up.
        var outcomes = 0
        for cut in 0..<v.bytes.count {
            let prefix = Array(v.bytes.prefix(cut))
            if (try? HCIEvent.decode(prefix)) != nil, cut < v.bytes.count {
                // The declared length still says more: keeping it must never decode.
                Issue.record("decoded a truncated \(v.name) at \(cut) bytes")
            }
            outcomes += 1
            if cut >= 2 {
                var fixed = prefix
                fixed[1] = UInt8(cut - 2)
                if let e = try? HCIEvent.decode(fixed) { _ = e.exerciseDisplay() }
                outcomes += 1
            }
        }
        #expect(outcomes == v.bytes.count + max(0, v.bytes.count - 2))
    }

    @Test(arguments: eventVectors)
    func everySingleByteChangeThrowsOrRoundTrips(_ v: EventVector) {
        var rng = SplitMix64(seed: UInt64(v.bytes.count))
        var decoded = 0, thrown = 0
        for i in 0..<v.bytes.count {
            for value in [UInt8(0x00), 0xFF, 0x7F, UInt8(truncatingIfNeeded: rng.next())] {
                var b = v.bytes
                b[i] = value
                do {
                    let e = try HCIEvent.decode(b)
                    #expect(try HCIEvent.decode(e.encoded) == e)
                    _ = e.exerciseDisplay()
                    decoded += 1
                } catch {
                    thrown += 1
                }
            }
        }
        #expect(decoded + thrown == v.bytes.count * 4)
    }
}
