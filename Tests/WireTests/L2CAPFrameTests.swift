import Testing
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }

@Suite struct L2CAPFrameTests {
    // Core Spec v5.4 Vol 3, Part A, §3.1: basic header = Length (2) + Channel ID (2).
    @Test func basicHeaderFromSpecLayout() throws {
        let header = try L2CAPBasicHeader(bytes: hx("05 00 04 00"))
        #expect(header.length == 5)
        #expect(header.channelID == .att)
        #expect(header.encoded == hx("05 00 04 00"))
    }

    @Test func frameDecodesExactly() throws {
        let frame = try L2CAPFrame.decode(handle: 0x40, pdu: hx("05 00 04 00 1b 2a 00 06 48")[...])
        #expect(frame.channelID == .att)
        #expect(Array(frame.payload) == hx("1b 2a 00 06 48"))
        #expect(frame.pduBytes == hx("05 00 04 00 1b 2a 00 06 48"))
    }

    @Test func frameLengthMismatchThrows() {
        #expect(throws: WireError.truncated(field: "L2CAP payload", needed: 5, available: 4)) {
            try L2CAPFrame.decode(handle: 1, pdu: hx("05 00 04 00 1b 2a 00 06")[...])
        }
        #expect(throws: WireError.self) {
            try L2CAPFrame.decode(handle: 1, pdu: hx("01 00 04 00 1b 2a")[...])
        }
        #expect(throws: WireError.self) {
            try L2CAPFrame.decode(handle: 1, pdu: hx("01 00 04")[...])
        }
    }

    // Vol 3, Part A, §2.1: fixed channels on LE-U.
    @Test func fixedLEChannelsHaveNames() {
        #expect(L2CAPChannelID.att.rawValue == 0x0004)
        #expect(L2CAPChannelID.leSignaling.rawValue == 0x0005)
        #expect(L2CAPChannelID.securityManager.rawValue == 0x0006)
        #expect(L2CAPChannelID.att.name == "Attribute Protocol")
        #expect(L2CAPChannelID.leSignaling.name == "LE L2CAP Signaling")
        #expect(L2CAPChannelID.securityManager.name == "Security Manager Protocol")
        #expect(L2CAPChannelID(0x0040).isLEDynamic && L2CAPChannelID(0x0040).name == "Dynamically allocated")
        #expect(!L2CAPChannelID(0x0080).isLEDynamic)
        #expect(L2CAPChannelID.att.description == "Attribute Protocol (0x0004)")
    }

    @Test func frameDescribesItself() {
        let frame = L2CAPFrame(handle: 0x40, channelID: .att, payload: [0x1E])
        var fields = FieldList()
        frame.describeFields(into: &fields)
        #expect(fields.value(of: "Channel ID") == "Attribute Protocol (0x0004)")
        #expect(frame.summary == "handle 0x0040 cid 0x0004 len 1")
    }
}
