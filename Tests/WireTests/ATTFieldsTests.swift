import Testing
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }

private func fields(_ hex: String) throws -> (ATTPDU, FieldList) {
    let pdu = try ATTPDU.decode(hx(hex))
    var list = FieldList()
    pdu.describeFields(into: &list)
    return (pdu, list)
}

@Suite struct ATTFieldsTests {
    // Core Spec v5.4 Vol 3, Part F, §3.4.1.1: errors by name, with the request by name.
    @Test func errorResponseNamesEverything() throws {
        let (pdu, list) = try fields("01 10 01 00 0a")
        #expect(pdu.name == "Error Response")
        #expect(pdu.summary == "Read By Group Type Request handle 0x0001: Attribute Not Found (0x0a)")
        #expect(list.value(of: "Request opcode") == "Read By Group Type Request (0x10)")
        #expect(list.value(of: "Handle") == "0x0001")
        #expect(list.value(of: "Error") == "Attribute Not Found (0x0a)")
    }

    // §3.4.7.1 Handle Value Notification.
    @Test func notificationShowsHandleAndHexValue() throws {
        let (pdu, list) = try fields("1b 2a 00 06 48")
        #expect(pdu.summary == "handle 0x002a value 06 48")
        #expect(list.value(of: "Handle") == "0x002a")
        #expect(list.value(of: "Value") == "06 48")
    }

    // §3.4.3.2 Find Information Response: UUIDs in their `.string` form.
    @Test func findInformationShowsUUIDs() throws {
        let (_, list) = try fields("05 01 03 00 02 29")
        #expect(list.value(of: "Format") == "0x01 (16-bit UUIDs)")
        #expect(list.value(of: "Handle 0x0003") == "2902 (Client Characteristic Configuration)")
        let (_, long) = try fields("05 02 10 00 42 00 74 a9 ff 52 10 9b 33 49 35 9b 01 01 68 ef")
        #expect(long.value(of: "Handle 0x0010") == "EF680101-9B35-4933-9B10-52FFA9740042")
    }

    // §3.4.4.10: a service group's value is shown as the service UUID.
    @Test func groupResponseShowsServiceUUIDs() throws {
        let (pdu, list) = try fields("11 06 01 00 07 00 00 18 08 00 0b 00 01 18")
        #expect(pdu.summary == "2 entries of 6 bytes")
        #expect(list.value(of: "Handle range 0x0001-0x0007") == "UUID 1800 (Generic Access)")
        #expect(list.value(of: "Handle range 0x0008-0x000b") == "UUID 1801 (Generic Attribute)")
    }

    @Test func requestsShowRangesAndTypes() throws {
        let (pdu, list) = try fields("08 01 00 ff ff 03 28")
        #expect(pdu.summary == "0x0001-0xffff type 2803")
        #expect(list.value(of: "Attribute type") == "2803 (Characteristic)")
        let (mtu, _) = try fields("02 f7 00")
        #expect(mtu.summary == "client rx mtu 247")
    }

    @Test func multipleNotificationNestsTuples() throws {
        let (_, list) = try fields("23 2a 00 02 00 06 48 2d 00 01 00 64")
        #expect(list.entries.map(\.level) == [0, 1, 1, 0, 1, 1])
        #expect(list.entries.map(\.value) == ["0x002a", "2", "06 48", "0x002d", "1", "64"])
    }

    @Test func everyVectorDescribesItself() throws {
        for v in ATTPDUTests.vectors {
            var list = FieldList()
            v.pdu.describeFields(into: &list)
            let hasParameters = hx(v.hex).count > 1
            #expect(!list.entries.isEmpty || !hasParameters, "\(v.section) has no fields")
            #expect(!v.pdu.summary.isEmpty || !hasParameters, "\(v.section) has no summary")
        }
    }

    @Test func longValuesAreShortenedOnlyInTheSummary() throws {
        let value = (0..<40).map { UInt8($0) }
        let pdu = ATTPDU.handleValueNotification(ATTHandleValue(handle: 1, value: value))
        #expect(pdu.summary.hasSuffix("… (40 bytes)"))
        var list = FieldList()
        pdu.describeFields(into: &list)
        #expect(list.value(of: "Value") == Hex.spaced(value))
    }
}
