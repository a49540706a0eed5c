import Testing
@testable import Wire

/// Names and field text in the units btmon shows (Core Spec v5.4 Vol 4, Part E, §7.7).
@Suite struct HCIEventDisplayTests {
    private func fields(_ bytes: [UInt8]) throws -> FieldList {
        var f = FieldList()
        try HCIEvent.decode(bytes).describeFields(into: &f)
        return f
    }

    @Test func eventCodeNames() {
        #expect(HCIEventCode.commandComplete.name == "Command Complete")
        #expect(HCIEventCode.commandStatus.name == "Command Status")
        #expect(HCIEventCode.numberOfCompletedPackets.name == "Number Of Completed Packets")
        #expect(HCIEventCode.leMeta.name == "LE Meta")
        #expect(HCIEventCode.vendor.name == "Vendor")
        #expect(HCIEventCode(0x59).name == "Encryption Change [v2]")
        #expect(HCIEventCode(0x42).name == "Unknown")
        #expect(HCIEventCode(0x0E).description == "Command Complete (0x0E)")
    }

    @Test func everySubeventOfTheSpecificationIsNamed() {
        // Vol 4, Part E, §7.7.65: subevent codes 0x01 … 0x29 are all assigned in v5.4.
        for code in UInt8(0x01)...0x29 {
            let name = LEMetaSubevent(code).name
            #expect(name.hasPrefix("LE "), "subevent \(code)")
        }
        #expect(LEMetaSubevent.connectionComplete.name == "LE Connection Complete")
        #expect(LEMetaSubevent.advertisingReport.name == "LE Advertising Report")
        #expect(LEMetaSubevent(0x00).name == "Unknown")
    }

    @Test func eventNames() throws {
        #expect(try HCIEvent.decode([0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]).name == "Command Complete")
        #expect(try HCIEvent.decode([0x3E, 0x04, 0x14, 0x40, 0x00, 0x01]).name == "LE Meta: LE Channel Selection Algorithm")
        #expect(try HCIEvent.decode([0x3E, 0x01, 0x12]).name == "LE Meta: LE Advertising Set Terminated")
        #expect(try HCIEvent.decode([0x3E, 0x01, 0x7F]).name == "LE Meta: Unknown (0x7F)")
        #expect(try HCIEvent.decode([0x42, 0x00]).name == "Unknown (0x42)")
        #expect(try HCIEvent.decode([0xFF, 0x00]).name == "Vendor")
    }

    @Test func connectionCompleteLikeBtmon() throws {
        // Vol 4, Part E, §7.7.65.1: interval 0x0018 × 1.25 ms, timeout 0x002A × 10 ms.
        let f = try fields([0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                            0x18, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x05])
        #expect(f.value(of: "Status") == "Success (0x00)")
        #expect(f.value(of: "Connection handle") == "0x0040")
        #expect(f.value(of: "Role") == "Central (0x00)")
        #expect(f.value(of: "Peer address type") == "random (0x01)")
        #expect(f.value(of: "Peer address") == "C0:11:22:33:44:55 (random static)")
        #expect(f.value(of: "Connection interval") == "30.00 ms (0x0018)")
        #expect(f.value(of: "Peripheral latency") == "0 (0x0000)")
        #expect(f.value(of: "Supervision timeout") == "420 ms (0x002A)")
        #expect(f.value(of: "Central clock accuracy") == "50 ppm (0x05)")
    }

    @Test func millisecondFormats() {
        #expect(EventFormat.units1_25ms(6) == "7.50 ms (0x0006)")
        #expect(EventFormat.units1_25ms(0x0C80) == "4000.00 ms (0x0C80)")
        #expect(EventFormat.units1_25ms(0xFFFF) == "81918.75 ms (0xFFFF)")
        #expect(EventFormat.units1_25ms(1) == "1.25 ms (0x0001)")
        #expect(EventFormat.units10ms(0x0C80) == "32000 ms (0x0C80)")
        #expect(EventFormat.dBm(-60) == "-60 dBm (0xC4)")
        #expect(EventFormat.dBm(127) == "not available (0x7F)")
    }

    @Test func advertisingReportLikeBtmon() throws {
        let f = try fields([0x3E, 0x0F, 0x02, 0x01, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                            0x03, 0x02, 0x01, 0x06, 0xC4])
        #expect(f.value(of: "Num reports") == "1")
        #expect(f.value(of: "Event type") == "ADV_IND (0x00)")
        #expect(f.value(of: "Data") == "02 01 06")
        #expect(f.value(of: "RSSI") == "-60 dBm (0xC4)")
        // The report's fields sit one level below the report's own line.
        #expect(f.entries.first { $0.label == "Report 1" }?.level == 0)
        #expect(f.entries.first { $0.label == "RSSI" }?.level == 1)
        let event = try HCIEvent.decode([0x3E, 0x0F, 0x02, 0x01, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                                         0x03, 0x02, 0x01, 0x06, 0xC4])
        #expect(event.summary == "ADV_IND C0:11:22:33:44:55/random -60 dBm data 3 bytes")
    }

    @Test func extendedEventTypeBitsByName() {
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x0013).name == "connectable, scannable, legacy (ADV_IND), complete")
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x001B).name
                == "connectable, scannable, scan response, legacy (SCAN_RSP), complete")
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x0025).name == "connectable, directed, incomplete, more data to come")
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x0040).name == "incomplete, data truncated")
    }

    @Test func extendedReportFields() throws {
        let bytes = eventVectors.first { $0.name == "LE Extended Advertising Report 2" }?.bytes ?? []
        let f = try fields(bytes)
        #expect(f.value(of: "Primary PHY") == "LE Coded (0x03)")
        #expect(f.value(of: "Secondary PHY") == "LE 2M (0x02)")
        #expect(f.value(of: "Advertising SID") == "0x03")
        #expect(f.value(of: "TX power") == "0 dBm (0x00)")
        #expect(f.value(of: "Periodic advertising interval") == "100.00 ms (0x0050)")
        #expect(f.entries.contains { $0.label == "Address type" && $0.value == "Anonymous (0xFF)" })
    }

    /// The fields are written into the buffer piece by piece; they must read as the values'
    /// own descriptions do, for every Event_Type bit pattern.
    @Test func extendedReportTextMatchesTheValuesDescriptions() {
        let peer = BDAddress(string: "C0:11:22:33:44:55")!
        for raw in Array(0...0x7F) + [0x0080, 0x0193] as [UInt16] {
            let type = LEExtendedAdvertisingEventType(rawValue: raw)
            let report = LEExtendedAdvertisingReport(eventType: type, addressType: .randomDevice, address: peer, rssi: -61,
                                                     data: [0x05, 0x09, 0x41, 0x42, 0x43, 0x44][...])
            var f = FieldList()
            report.describeFields(into: &f)
            #expect(f.value(of: "Event type") == type.description, "Event_Type \(raw)")
            #expect(report.summary == (type.legacyEventType?.name ?? "extended") + " C0:11:22:33:44:55/random -61 dBm data 6 bytes \"ABCD\"")
        }
        let anonymous = LEExtendedAdvertisingReport(eventType: [], addressType: .anonymous, address: .zero, rssi: 127, data: [])
        #expect(anonymous.summary == "extended anonymous no RSSI data 0 bytes")
        var f = FieldList()
        anonymous.describeFields(into: &f)
        #expect(f.value(of: "Address") == "00:00:00:00:00:00")
        #expect(f.value(of: "Direct address type") == "Public (0x00)")
        #expect(f.value(of: "RSSI") == "not available (0x7F)")
    }

    @Test func phyAndCompletedPacketsSummaries() throws {
        #expect(try HCIEvent.decode([0x3E, 0x06, 0x0C, 0x00, 0x40, 0x00, 0x02, 0x03]).summary
                == "handle 0x0040 tx LE 2M rx LE Coded")
        #expect(try HCIEvent.decode([0x13, 0x09, 0x02, 0x40, 0x00, 0x02, 0x00, 0x41, 0x00, 0x01, 0x00]).summary
                == "handle 0x0040: 2, handle 0x0041: 1")
        #expect(try HCIEvent.decode([0x0F, 0x04, 0x0C, 0x01, 0x0D, 0x20]).summary == "LE Create Connection (0x08|0x000D) status Command Disallowed (0x0C) ncmd 1")
    }

    @Test func unknownEventsShowTheirBytes() throws {
        let f = try fields([0xFF, 0x03, 0x01, 0x02, 0x03])
        #expect(f.value(of: "Parameters") == "01 02 03")
    }
}
