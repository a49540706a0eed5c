import Testing
import Wire
@testable import HostCore

/// BlueZ's PTS-derived GATT client cases (unit/test-gatt.c, the `/TP/…/CL/…` ones) played
/// against rtstack's GATT client: `FakeATTServer` in script mode answers exactly the PDUs of
/// the case and fails the test on any PDU the client sends that the case does not, byte for
/// byte; then the outcome is the case's (value, error code, what was found). The mapping from
/// case to test, and the cases that do not apply or differ on purpose, is in Docs/gatt-client.md.
///
/// Every case starts, as BlueZ's do, with the client's Exchange MTU for 512 (02 00 02 /
/// 03 00 02). BlueZ's client then reads Server Supported Features and discovers the whole
/// database before a GAR/GAW case's own PDUs; that start-up is its own, not the case's, and
/// rtstack reads and writes by handle without it, so those PDUs are not played here.
@Suite struct BlueZClientCaseTests {
    enum Outcome: Sendable {
        case done
        case mtu(UInt16)
        case value([UInt8])
        case values([(UInt16, [UInt8])])
        /// The ATT Error Code the operation fails with.
        case error(UInt8)
        /// (start, end, UUID as sent, least significant octet first).
        case services([(UInt16, UInt16, String)])
        case included([GATTIncludedService])
        case characteristics([GATTCharacteristic])
        case descriptors([(UInt16, UInt16)])
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let operation: GATTOperation
        /// (what the client sends, what the server answers; nil for a command).
        let pdus: [(String, String?)]
        let outcome: Outcome
        var testDescription: String { id }
    }

    static func uuid(_ leastSignificantFirst: String) -> BluetoothUUID {
        BluetoothUUID(littleEndian: bytes(leastSignificantFirst)[...]) ?? BluetoothUUID(0)
    }

    static func bytes(_ hex: String) -> [UInt8] { Hex.parse(hex) ?? [] }

    /// `count` octets of 0xFF as hex.
    static func ff(_ count: Int) -> String { String(repeating: "ff", count: count) }

    static let data1 = [UInt8]([1, 2, 3])
    static let vendor = "ef cd ab 89 67 45 23 01 00 00 00 00"

    // MARK: - Discovery (GAD)

    static let discovery: [Case] = [
        Case(id: "/TP/GAC/CL/BV-01-C", operation: .exchangeMTU(512), pdus: [], outcome: .mtu(512)),
        Case(id: "/TP/GAD/CL/BV-01-C", operation: .discoverPrimaryServices(nil), pdus: [
            ("10 0100 ffff 0028", "11 06 1000 1300 0018 2000 2900 b068 3000 3200 1918"),
            ("10 3300 ffff 0028", "11 14 9000 9600 \(vendor) 8560 0000"),
            ("10 9700 ffff 0028", "01 10 9700 0a"),
        ], outcome: .services([(0x10, 0x13, "0018"), (0x20, 0x29, "b068"), (0x30, 0x32, "1918"), (0x90, 0x96, "\(vendor) 8560 0000")])),
        Case(id: "/TP/GAD/CL/BV-01-C-small", operation: .discoverPrimaryServices(nil), pdus: [
            ("10 0100 ffff 0028", "11 06 10f0 18f0 0018 ffff ffff 0a18"),
        ], outcome: .services([(0xF010, 0xF018, "0018"), (0xFFFF, 0xFFFF, "0a18")])),
        Case(id: "/TP/GAD/CL/BV-02-C-1", operation: .discoverPrimaryServices(BluetoothUUID(0x1800)), pdus: [
            ("06 0100 ffff 0028 0018", "07 0100 0700"),
            ("06 0800 ffff 0028 0018", "01 06 0800 0a"),
        ], outcome: .services([(0x0001, 0x0007, "0018")])),
        Case(id: "/TP/GAD/CL/BV-02-C-1-alternative", operation: .discoverPrimaryServices(BluetoothUUID(0x1800)), pdus: [
            ("06 0100 ffff 0028 0018", "07 0100 ffff"),
        ], outcome: .services([(0x0001, 0xFFFF, "0018")])),
        // The case asks with the 128-bit form of 0x180D; rtstack sends a SIG UUID in its
        // 16-bit form (the form its declaration holds): otherwise the case's PDUs.
        Case(id: "/TP/GAD/CL/BV-02-C-2 (16-bit form)", operation: .discoverPrimaryServices(uuid("fb349b5f 80000080 00100000 0d180000")), pdus: [
            ("06 0100 ffff 0028 0d18", "07 1000 1700"),
            ("06 1800 ffff 0028 0d18", "01 06 1800 0a"),
        ], outcome: .services([(0x0010, 0x0017, "0d18")])),
        Case(id: "/TP/GAD/CL/BV-03-C", operation: .findIncludedServices(range: 0x0001...0xFFFF), pdus: [
            ("08 0100 ffff 0228", "09 08 0200 1000 1f00 0f18"),
            ("08 0300 ffff 0228", "09 06 0300 2000 2f00 0400 3000 3f00"),
            ("0a 2000", "0b 0000 3e39 0000 0000 0123 4567 89ab cdef"),
            ("0a 3000", "0b 0000 3b39 0000 0000 0123 4567 89ab cdef"),
            ("08 0500 ffff 0228", "09 08 0500 4000 4f00 0a18"),
            ("08 0600 ffff 0228", "01 08 0600 0a"),
        ], outcome: .included([
            GATTIncludedService(declarationHandle: 0x0002, startHandle: 0x0010, endHandle: 0x001F, uuid: BluetoothUUID(0x180F)),
            GATTIncludedService(declarationHandle: 0x0003, startHandle: 0x0020, endHandle: 0x002F, uuid: uuid("0000 3e39 0000 0000 0123 4567 89ab cdef")),
            GATTIncludedService(declarationHandle: 0x0004, startHandle: 0x0030, endHandle: 0x003F, uuid: uuid("0000 3b39 0000 0000 0123 4567 89ab cdef")),
            GATTIncludedService(declarationHandle: 0x0005, startHandle: 0x0040, endHandle: 0x004F, uuid: BluetoothUUID(0x180A)),
        ])),
        Case(id: "/TP/GAD/CL/BV-04-C", operation: .discoverCharacteristics(range: 0x0010...0x0020, uuid: nil), pdus: characteristicPDUs,
             outcome: .characteristics([characteristic2A25, characteristicVendor])),
        Case(id: "/TP/GAD/CL/BV-05-C", operation: .discoverCharacteristics(range: 0x0010...0x0020, uuid: BluetoothUUID(0x2A25)),
             pdus: characteristicPDUs, outcome: .characteristics([characteristic2A25])),
        Case(id: "/TP/GAD/CL/BV-06-C", operation: .discoverDescriptors(range: 0x0013...0x0016), pdus: [
            ("04 1300 1600", "05 01 1300 0229 1400 0329"),
            ("04 1500 1600", "05 01 1500 0429 1600 0529"),
        ], outcome: .descriptors([(0x13, 0x2902), (0x14, 0x2903), (0x15, 0x2904), (0x16, 0x2905)])),
    ]

    static let characteristicPDUs: [(String, String?)] = [
        ("08 1000 2000 0328", "09 07 1100 02 1200 252a"),
        ("08 1200 2000 0328", "09 15 1300 02 1400 8500 \(vendor) 0000"),
        ("08 1400 2000 0328", "01 08 1200 0a"),
    ]
    static let characteristic2A25 = GATTCharacteristic(uuid: BluetoothUUID(0x2A25), declarationHandle: 0x0011, valueHandle: 0x0012,
                                                       properties: 0x02, endHandle: 0x0012)
    static let characteristicVendor = GATTCharacteristic(uuid: uuid("8500 \(vendor) 0000"), declarationHandle: 0x0013,
                                                         valueHandle: 0x0014, properties: 0x02, endHandle: 0x0020)

    // MARK: - Reads (GAR)

    /// A read of `handle` answered with an error `code`, as most GAR/CL/BI cases are.
    static func readError(_ id: String, _ operation: GATTOperation, _ request: String, _ code: UInt8) -> Case {
        let opcode = String(request.prefix(2))
        let handle = String(request.dropFirst(3).prefix(4))
        return Case(id: id, operation: operation, pdus: [(request, "01 \(opcode) \(handle) \(Hex.string([code]))")], outcome: .error(code))
    }

    /// Read Using Characteristic UUID 0x2A0D over the whole range, refused with `code` (the
    /// cases answer with handle 0x000B).
    static func byTypeError(_ id: String, _ code: UInt8) -> Case {
        Case(id: id, operation: .readByType(BluetoothUUID(0x2A0D), range: 0x0001...0xFFFF),
             pdus: [("08 0100 ffff 0d2a", "01 08 0b00 \(Hex.string([code]))")], outcome: .error(code))
    }

    static let reads: [Case] = [
        Case(id: "/TP/GAR/CL/BV-01-C", operation: .read(handle: 0x0003), pdus: [("0a 0300", "0b 010203")], outcome: .value(data1)),
        readError("/TP/GAR/CL/BI-01-C", .read(handle: 0x0000), "0a 0000", 0x01),
        readError("/TP/GAR/CL/BI-02-C", .read(handle: 0x0003), "0a 0300", 0x02),
        readError("/TP/GAR/CL/BI-03-C", .read(handle: 0x0003), "0a 0300", 0x08),
        readError("/TP/GAR/CL/BI-04-C", .read(handle: 0x0003), "0a 0300", 0x05),
        readError("/TP/GAR/CL/BI-05-C", .read(handle: 0x0003), "0a 0300", 0x0C),
        Case(id: "/TP/GAR/CL/BV-03-C-1", operation: .readByType(BluetoothUUID(0x2A0D), range: 0x0001...0xFFFF), pdus: [
            ("08 0100 ffff 0d2a", "09 05 0a00 010203"),
            ("08 0b00 ffff 0d2a", "01 08 0b00 0a"),
        ], outcome: .values([(UInt16(0x000A), data1)])),
        Case(id: "/TP/GAR/CL/BV-03-C-2", operation: .readByType(uuid("0f0e0d0c 0b0a0908 07060504 03020100"), range: 0x0001...0xFFFF), pdus: [
            ("08 0100 ffff 0f0e0d0c 0b0a0908 07060504 03020100", "09 05 0a00 010203"),
            ("08 0b00 ffff 0f0e0d0c 0b0a0908 07060504 03020100", "01 08 0b00 0a"),
        ], outcome: .values([(UInt16(0x000A), data1)])),
        byTypeError("/TP/GAR/CL/BI-06-C", 0x02),
        byTypeError("/TP/GAR/CL/BI-07-C", 0x0A),
        byTypeError("/TP/GAR/CL/BI-09-C", 0x08),
        byTypeError("/TP/GAR/CL/BI-10-C", 0x05),
        byTypeError("/TP/GAR/CL/BI-11-C", 0x0C),
        Case(id: "/TP/GAR/CL/BV-04-C", operation: .readLong(handle: 0x0003), pdus: [("0a 0300", "0b 010203")], outcome: .value(data1)),
        // The case's Read Response carries 512 octets, one more than ATT_MTU 512 leaves
        // (ATT_MTU − 1); BlueZ's socket read cuts it to the MTU. Played with the 511 that fit.
        Case(id: "/TP/GAR/CL/BV-04-C/512B (511-octet first answer)", operation: .readLong(handle: 0x0003), pdus: [
            ("0a 0300", "0b " + ff(511)),
            ("0c 0300 ff01", "0d ff"),
        ], outcome: .value([UInt8](repeating: 0xFF, count: 512))),
        Case(id: "/TP/GAR/CL/BV-05-C", operation: .readMultiple(handles: [0x0003, 0x0007]), pdus: [("0e 0300 0700", "0f 010203")],
             outcome: .value(data1)),
        readError("/TP/GAR/CL/BI-12-C", .readLong(handle: 0x0003), "0a 0300", 0x02),
        readError("/TP/GAR/CL/BI-13-C", .readLong(handle: 0x0003), "0a 0300", 0x07),
        readError("/TP/GAR/CL/BI-14-C", .readLong(handle: 0x0000), "0a 0000", 0x01),
        readError("/TP/GAR/CL/BI-15-C", .readLong(handle: 0x0003), "0a 0300", 0x08),
        readError("/TP/GAR/CL/BI-16-C", .readLong(handle: 0x0003), "0a 0300", 0x05),
        readError("/TP/GAR/CL/BI-17-C", .readLong(handle: 0x0003), "0a 0300", 0x0C),
        readError("/TP/GAR/CL/BI-18-C", .readMultiple(handles: [0x0003, 0x0007]), "0e 0300 0700", 0x02),
        readError("/TP/GAR/CL/BI-19-C", .readMultiple(handles: [0x0003, 0x0007]), "0e 0300 0700", 0x01),
        readError("/TP/GAR/CL/BI-20-C", .readMultiple(handles: [0x0003, 0x0007]), "0e 0300 0700", 0x08),
        readError("/TP/GAR/CL/BI-21-C", .readMultiple(handles: [0x0003, 0x0007]), "0e 0300 0700", 0x05),
        readError("/TP/GAR/CL/BI-22-C", .readMultiple(handles: [0x0003, 0x0007]), "0e 0300 0700", 0x0C),
        Case(id: "/TP/GAR/CL/BV-06-C", operation: .read(handle: 0x0004), pdus: [("0a 0400", "0b 010203")], outcome: .value(data1)),
        readError("/TP/GAR/CL/BI-23-C", .read(handle: 0x0004), "0a 0400", 0x02),
        readError("/TP/GAR/CL/BI-24-C", .read(handle: 0x0000), "0a 0000", 0x01),
        readError("/TP/GAR/CL/BI-25-C", .read(handle: 0x0004), "0a 0400", 0x08),
        readError("/TP/GAR/CL/BI-26-C", .read(handle: 0x0004), "0a 0400", 0x05),
        readError("/TP/GAR/CL/BI-27-C", .read(handle: 0x0004), "0a 0400", 0x0C),
        Case(id: "/TP/GAR/CL/BV-07-C", operation: .readLong(handle: 0x0004), pdus: [("0a 0400", "0b 010203")], outcome: .value(data1)),
        Case(id: "/TP/GAR/CL/BV-07-C/512B (511-octet first answer)", operation: .readLong(handle: 0x0004), pdus: [
            ("0a 0400", "0b " + ff(511)),
            ("0c 0400 ff01", "0d ff"),
        ], outcome: .value([UInt8](repeating: 0xFF, count: 512))),
        readError("/TP/GAR/CL/BI-28-C", .readLong(handle: 0x0004), "0a 0400", 0x02),
        readError("/TP/GAR/CL/BI-29-C", .readLong(handle: 0x0004), "0a 0400", 0x07),
        readError("/TP/GAR/CL/BI-30-C", .readLong(handle: 0x0000), "0a 0000", 0x01),
        readError("/TP/GAR/CL/BI-31-C", .readLong(handle: 0x0004), "0a 0400", 0x08),
        readError("/TP/GAR/CL/BI-32-C", .readLong(handle: 0x0004), "0a 0400", 0x05),
        readError("/TP/GAR/CL/BI-33-C", .readLong(handle: 0x0004), "0a 0400", 0x0C),
        readError("/TP/GAR/CL/BI-34-C", .read(handle: 0x0003), "0a 0300", 0x80),
        readError("/TP/GAR/CL/BI-35-C", .read(handle: 0x0003), "0a 0300", 0x80),
    ]

    // MARK: - Writes (GAW)

    /// A prepared write refused with `code`, then the queue cancelled (18 00 / 19).
    static func preparedError(_ id: String, _ operation: GATTOperation, handle: String, _ code: UInt8) -> Case {
        Case(id: id, operation: operation, pdus: [
            ("16 \(handle) 0000 010203", "01 16 \(handle) \(Hex.string([code]))"),
            ("18 00", "19"),
        ], outcome: .error(code))
    }

    static let longValue = [UInt8](repeating: 0xFF, count: 512)

    /// Write Long of 512 octets at ATT_MTU 512: 507 + 5 octets, then Execute Write.
    static func long512(_ handle: String) -> [(String, String?)] {
        [("16 \(handle) 0000 " + ff(507), "17 \(handle) 0000 " + ff(507)),
         ("16 \(handle) fb01 " + ff(5), "17 \(handle) fb01 " + ff(5)),
         ("18 01", "19")]
    }

    static let writes: [Case] = [
        Case(id: "/TP/GAW/CL/BV-01-C", operation: .writeWithoutResponse(handle: 0x0007, value: data1), pdus: [("52 0700 010203", nil)],
             outcome: .done),
        // The signature is BlueZ's for its test key and SignCounter 0 (signing itself:
        // ATTSigningTests.bluezGAWCLBV02C in SecurityTests).
        Case(id: "/TP/GAW/CL/BV-02-C", operation: .signedWrite(ATTSignedWrite(handle: 0x0007, value: data1[...],
                                                                               authenticationSignature: bytes("00000000 311f0acd 1c3a5b0a")[...])),
             pdus: [("d2 0700 010203 00000000 311f0acd 1c3a5b0a", nil)], outcome: .done),
        Case(id: "/TP/GAW/CL/BV-03-C", operation: .write(handle: 0x0007, value: data1), pdus: [("12 0700 010203", "13")], outcome: .done),
        readError("/TP/GAW/CL/BI-02-C", .write(handle: 0x0000, value: data1), "12 0000 010203", 0x01),
        readError("/TP/GAW/CL/BI-03-C", .write(handle: 0x0007, value: data1), "12 0700 010203", 0x03),
        readError("/TP/GAW/CL/BI-04-C", .write(handle: 0x0007, value: data1), "12 0700 010203", 0x08),
        readError("/TP/GAW/CL/BI-05-C", .write(handle: 0x0007, value: data1), "12 0700 010203", 0x05),
        readError("/TP/GAW/CL/BI-06-C", .write(handle: 0x0007, value: data1), "12 0700 010203", 0x0C),
        Case(id: "/TP/GAW/CL/BV-05-C", operation: .writeLong(handle: 0x0007, value: longValue), pdus: long512("0700"), outcome: .done),
        preparedError("/TP/GAW/CL/BI-07-C", .writeLong(handle: 0x0000, value: data1), handle: "0000", 0x01),
        preparedError("/TP/GAW/CL/BI-08-C", .writeLong(handle: 0x0003, value: data1), handle: "0300", 0x03),
        preparedError("/TP/GAW/CL/BI-11-C", .writeLong(handle: 0x0007, value: data1), handle: "0700", 0x08),
        preparedError("/TP/GAW/CL/BI-12-C", .writeLong(handle: 0x0007, value: data1), handle: "0700", 0x05),
        preparedError("/TP/GAW/CL/BI-13-C", .writeLong(handle: 0x0007, value: data1), handle: "0700", 0x0C),
        Case(id: "/TP/GAW/CL/BV-06-C", operation: .reliableWrite([(handle: UInt16(0x0007), value: data1)]), pdus: [
            ("16 0700 0000 010203", "17 0700 0000 010203"),
            ("18 01", "19"),
        ], outcome: .done),
        preparedError("/TP/GAW/CL/BI-14-C", .reliableWrite([(handle: UInt16(0x0000), value: data1)]), handle: "0000", 0x01),
        preparedError("/TP/GAW/CL/BI-15-C", .reliableWrite([(handle: UInt16(0x0003), value: data1)]), handle: "0300", 0x03),
        preparedError("/TP/GAW/CL/BI-17-C", .reliableWrite([(handle: UInt16(0x0007), value: data1)]), handle: "0700", 0x08),
        preparedError("/TP/GAW/CL/BI-18-C", .reliableWrite([(handle: UInt16(0x0007), value: data1)]), handle: "0700", 0x05),
        preparedError("/TP/GAW/CL/BI-19-C", .reliableWrite([(handle: UInt16(0x0007), value: data1)]), handle: "0700", 0x0C),
        Case(id: "/TP/GAW/CL/BV-08-C", operation: .write(handle: 0x0008, value: data1), pdus: [("12 0800 010203", "13")], outcome: .done),
        readError("/TP/GAW/CL/BI-20-C", .write(handle: 0x0000, value: data1), "12 0000 010203", 0x01),
        readError("/TP/GAW/CL/BI-21-C", .write(handle: 0x0008, value: data1), "12 0800 010203", 0x03),
        readError("/TP/GAW/CL/BI-22-C", .write(handle: 0x0008, value: data1), "12 0800 010203", 0x08),
        readError("/TP/GAW/CL/BI-23-C", .write(handle: 0x0008, value: data1), "12 0800 010203", 0x05),
        readError("/TP/GAW/CL/BI-24-C", .write(handle: 0x0008, value: data1), "12 0800 010203", 0x0C),
        Case(id: "/TP/GAW/CL/BV-09-C", operation: .writeLong(handle: 0x0008, value: longValue), pdus: long512("0800"), outcome: .done),
        preparedError("/TP/GAW/CL/BI-25-C", .writeLong(handle: 0x0000, value: data1), handle: "0000", 0x01),
        preparedError("/TP/GAW/CL/BI-26-C", .writeLong(handle: 0x0008, value: data1), handle: "0800", 0x03),
        preparedError("/TP/GAW/CL/BI-29-C", .writeLong(handle: 0x0008, value: data1), handle: "0800", 0x08),
        preparedError("/TP/GAW/CL/BI-30-C", .writeLong(handle: 0x0008, value: data1), handle: "0800", 0x05),
        preparedError("/TP/GAW/CL/BI-31-C", .writeLong(handle: 0x0008, value: data1), handle: "0800", 0x0C),
    ]

    // MARK: - Playing a case

    /// The client after BlueZ's MTU exchange for 512, with the case's PDUs scripted.
    static func client(_ c: Case, plan: LinkPlan = GATTHarness.plan()) -> GATTHarness {
        let server = FakeATTServer(attributes: [])
        var script: [(expect: [UInt8], reply: [UInt8]?)] = [(bytes("02 0002"), bytes("03 0002"))]
        script += c.pdus.map { (bytes($0.0), $0.1.map(bytes)) }
        server.script = script
        let h = GATTHarness(server: server, plan: plan)
        h.linkUp()
        if case .exchangeMTU = c.operation { return h }
        let mtu = h.perform(.exchangeMTU(512))
        #expect(h.server.scriptLeft == c.pdus.count)
        guard case .success(.mtu(512))? = h.result(mtu) else {
            Issue.record("MTU exchange: \(String(describing: h.result(mtu)))")
            return h
        }
        return h
    }

    @Test(arguments: discovery + reads + writes)
    func bluezCase(_ c: Case) {
        let h = Self.client(c)
        let id = h.perform(c.operation)
        if let problem = Self.mismatch(h.result(id), c.outcome) {
            Issue.record("\(c.id): \(problem)")
        }
        #expect(h.completions(id) == 1)
        #expect(h.server.scriptLeft == 0, "\(c.id): \(h.server.scriptLeft) scripted PDU(s) never sent")
        #expect(h.server.inFlightViolations == 0)
    }

    /// What differs between the result and the case's outcome, or nil.
    static func mismatch(_ result: Result<GATTResult, HostError>?, _ outcome: Outcome) -> String? {
        guard let result else { return "the operation did not complete" }
        switch (outcome, result) {
        case let (.error(code), .failure(e)):
            return e.attErrorCode?.rawValue == code ? nil : "failed with \(e), the case expects ATT error \(ATTErrorCode(code))"
        case (.done, .success(.done)):
            return nil
        case let (.mtu(m), .success(.mtu(got))):
            return m == got ? nil : "MTU \(got), expected \(m)"
        case let (.value(v), .success(.value(got))):
            return v == got ? nil : "value \(Hex.spaced(got)), expected \(Hex.spaced(v))"
        case let (.values(v), .success(.values(got))):
            return v.map(\.0) == got.map(\.handle) && v.map(\.1) == got.map(\.value) ? nil : "values \(got), expected \(v)"
        case let (.services(s), .success(.services(got))):
            let want = s.map { "\(HandleWalk.text($0.0))-\(HandleWalk.text($0.1)) \(uuid($0.2))" }
            let have = got.map { "\(HandleWalk.text($0.startHandle))-\(HandleWalk.text($0.endHandle)) \($0.uuid)" }
            return want == have ? nil : "services \(have), expected \(want)"
        case let (.included(i), .success(.includedServices(got))):
            return i == got ? nil : "included services \(got), expected \(i)"
        case let (.characteristics(c), .success(.characteristics(got))):
            return c == got ? nil : "characteristics \(got), expected \(c)"
        case let (.descriptors(d), .success(.descriptors(got))):
            let have = got.map { ($0.handle, $0.uuid) }
            return have.map(\.0) == d.map(\.0) && have.map(\.1) == d.map { BluetoothUUID($0.1) } ? nil : "descriptors \(got), expected \(d)"
        default:
            return "got \(result), the case expects \(outcome)"
        }
    }
}

/// The BlueZ client cases that need more than one operation and its PDUs: whole-database
/// discovery (outcome only: BlueZ's client discovers in its own order), notifications and
/// indications after a CCCD write, the signed write on an encrypted link (where rtstack
/// differs on purpose), and requests from the peer's client that reach rtstack's.
extension BlueZClientCaseTests {
    static let userDescription = BluetoothUUID(0x2901)

    // /TP/GAD/CL/BV-06-C/client-1…3 discover all of service_db_1…3 through BlueZ's start-up
    // order (primary, secondary, includes, characteristics, descriptors over the whole
    // database); rtstack goes service by service, so only what is found can be compared.
    @Test(arguments: [1, 2, 3])
    func bluezDiscoveryOfServiceData(_ n: Int) throws {
        let (server, expected) = Self.serviceData(n)
        let h = GATTHarness(server: server)
        h.linkUp()
        let id = h.perform(.discoverAll)
        guard case let .success(.database(db))? = h.result(id) else {
            Issue.record("/TP/GAD/CL/BV-06-C/client-\(n): \(String(describing: h.result(id)))")
            return
        }
        #expect(db == expected, "/TP/GAD/CL/BV-06-C/client-\(n)")
        #expect(h.server.inFlightViolations == 0)
    }

    /// The databases of BlueZ's make_service_data_1…3_db, and what discovery must find in them.
    static func serviceData(_ n: Int) -> (FakeATTServer, GATTDatabase) {
        let name = Array("BlueZ".utf8)
        let readWrite: CharacteristicProperties = [.read, .write]
        switch n {
        case 1:
            let server = FakeATTServer { b in
                b.service(.genericAttributeService) { s in
                    s.characteristic(.deviceName, .read, value: name, descriptors: [(userDescription, Array("Device Name".utf8))])
                }
                b.service(BluetoothUUID(0x180D)) { s in
                    s.characteristic(.manufacturerNameString, readWrite, descriptors: [(userDescription, Array("Manufacturer Name".utf8))])
                }
            }
            return (server, GATTDatabase(services: [
                GATTService(uuid: .genericAttributeService, startHandle: 0x0001, endHandle: 0x0004, characteristics: [
                    GATTCharacteristic(uuid: .deviceName, declarationHandle: 0x0002, valueHandle: 0x0003, properties: 0x02, endHandle: 0x0004,
                                       descriptors: [GATTDescriptor(uuid: userDescription, handle: 0x0004)]),
                ]),
                GATTService(uuid: BluetoothUUID(0x180D), startHandle: 0x0005, endHandle: 0x0008, characteristics: [
                    GATTCharacteristic(uuid: .manufacturerNameString, declarationHandle: 0x0006, valueHandle: 0x0007, properties: 0x0A,
                                       endHandle: 0x0008, descriptors: [GATTDescriptor(uuid: userDescription, handle: 0x0008)]),
                ]),
            ]))
        case 2:
            let server = FakeATTServer { b in
                b.service(.genericAttributeService) { s in
                    s.characteristic(.deviceName, .read, value: name, descriptors: [(userDescription, Array("Device Name".utf8))])
                }
                b.service(BluetoothUUID(0x180D)) { s in
                    s.skip(to: 0x0007)
                    s.characteristic(.manufacturerNameString, readWrite)
                    s.skip(to: 0x000A)
                    s.descriptor(userDescription, Array("Manufacturer Name".utf8))
                }
            }
            return (server, GATTDatabase(services: [
                GATTService(uuid: .genericAttributeService, startHandle: 0x0001, endHandle: 0x0004, characteristics: [
                    GATTCharacteristic(uuid: .deviceName, declarationHandle: 0x0002, valueHandle: 0x0003, properties: 0x02, endHandle: 0x0004,
                                       descriptors: [GATTDescriptor(uuid: userDescription, handle: 0x0004)]),
                ]),
                GATTService(uuid: BluetoothUUID(0x180D), startHandle: 0x0005, endHandle: 0x000A, characteristics: [
                    GATTCharacteristic(uuid: .manufacturerNameString, declarationHandle: 0x0007, valueHandle: 0x0008, properties: 0x0A,
                                       endHandle: 0x000A, descriptors: [GATTDescriptor(uuid: userDescription, handle: 0x000A)]),
                ]),
            ]))
        default:
            let server = FakeATTServer { b in
                b.skip(to: 0x0100)
                b.service(.genericAccessService) { s in
                    s.skip(to: 0x0110)
                    s.characteristic(.deviceName, .read, value: name)
                    s.skip(to: 0x0120)
                    s.characteristic(.appearance, .read, value: [0, 0])
                }
                b.skip(to: 0x0200)
                b.service(.genericAttributeService) { _ in }
                b.skip(to: 0x0300)
                b.service(BluetoothUUID(0x180D)) { s in
                    s.skip(to: 0x0310)
                    s.characteristic(.manufacturerNameString, readWrite)
                    s.skip(to: 0x0320)
                    s.descriptor(.clientCharacteristicConfiguration, [0, 0])
                }
            }
            return (server, GATTDatabase(services: [
                GATTService(uuid: .genericAccessService, startHandle: 0x0100, endHandle: 0x0121, characteristics: [
                    GATTCharacteristic(uuid: .deviceName, declarationHandle: 0x0110, valueHandle: 0x0111, properties: 0x02, endHandle: 0x011F),
                    GATTCharacteristic(uuid: .appearance, declarationHandle: 0x0120, valueHandle: 0x0121, properties: 0x02, endHandle: 0x0121),
                ]),
                GATTService(uuid: .genericAttributeService, startHandle: 0x0200, endHandle: 0x0200),
                GATTService(uuid: BluetoothUUID(0x180D), startHandle: 0x0300, endHandle: 0x0320, characteristics: [
                    GATTCharacteristic(uuid: .manufacturerNameString, declarationHandle: 0x0310, valueHandle: 0x0311, properties: 0x0A,
                                       endHandle: 0x0320, descriptors: [GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: 0x0320)]),
                ]),
            ]))
        }
    }

    /// The part of ts_small_db the GAN/GAI cases subscribe in: 0x0003 notifies (CCCD 0x0004),
    /// 0x0008 indicates (CCCD 0x0009), as the client knows it from discovery.
    static var smallDatabase: GATTDatabase {
        let cccd = BluetoothUUID.clientCharacteristicConfiguration
        return GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0x1800), startHandle: 0x0001, endHandle: 0x0010, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A00), declarationHandle: 0x0002, valueHandle: 0x0003, properties: 0x12, endHandle: 0x0006,
                               descriptors: [GATTDescriptor(uuid: cccd, handle: 0x0004)]),
            GATTCharacteristic(uuid: BluetoothUUID(0x2A01), declarationHandle: 0x0007, valueHandle: 0x0008, properties: 0x22, endHandle: 0x0010,
                               descriptors: [GATTDescriptor(uuid: cccd, handle: 0x0009)]),
        ])])
    }

    // /TP/GAN/CL/BV-01-C: the CCCD written for notifications, then a notification delivered.
    @Test func bluezGANCLBV01C() {
        let c = Case(id: "/TP/GAN/CL/BV-01-C", operation: .subscribe(valueHandle: 0x0003, mode: .notify),
                     pdus: [("12 0400 0100", "13")], outcome: .done)
        let h = Self.client(c, plan: GATTHarness.plan(cache: Self.smallDatabase))
        let id = h.perform(c.operation)
        #expect(Self.mismatch(h.result(id), c.outcome) == nil)
        h.server.inject(Self.bytes("1b 0300 010203"))
        h.pump()
        #expect(h.notifications.map(\.0) == [0x0003])
        #expect(h.notifications.map(\.1) == [Self.data1])
        #expect(h.server.scriptLeft == 0)
    }

    // /TP/GAI/CL/BV-01-C: the CCCD written for indications; an indication is confirmed (1E)
    // and delivered.
    @Test func bluezGAICLBV01C() {
        let c = Case(id: "/TP/GAI/CL/BV-01-C", operation: .subscribe(valueHandle: 0x0008, mode: .indicate),
                     pdus: [("12 0900 0200", "13"), ("1e", nil)], outcome: .done)
        let h = Self.client(c, plan: GATTHarness.plan(cache: Self.smallDatabase))
        let id = h.perform(c.operation)
        #expect(Self.mismatch(h.result(id), c.outcome) == nil)
        h.server.inject(Self.bytes("1d 0300 010203"))
        h.pump()
        #expect(h.indications.map(\.0) == [0x0003])
        #expect(h.indications.map(\.1) == [Self.data1])
        #expect(h.server.scriptLeft == 0)
    }

    // /TP/GAW/CL/BV-02-C/seclevel: on an encrypted link the signed write goes as a Write
    // Command, 52 07 00 01 02 03, as BlueZ sends it (Vol 3, Part G, §4.9.2).
    @Test func bluezGAWCLBV02CSeclevel() {
        let c = Case(id: "/TP/GAW/CL/BV-02-C/seclevel", operation: .signedWrite(ATTSignedWrite(
            handle: 0x0007, value: Self.data1[...], authenticationSignature: Self.bytes("00000000 311f0acd 1c3a5b0a")[...])),
                     pdus: [("52 0700 010203", nil)], outcome: .done)
        let h = Self.client(c)
        h.session.linkEncrypted = true
        let id = h.perform(c.operation)
        #expect(Self.mismatch(h.result(id), c.outcome) == nil)
        #expect(h.server.scriptLeft == 0, "the Write Command BlueZ sends: \(h.server.received)")
    }

    // /robustness/unkown-request and /robustness/unkown-command are server cases, but the
    // peer's client may send them to rtstack's: a request is answered Request Not Supported
    // (01 bf 00 00 06), a command is not answered at all.
    @Test func bluezRobustnessUnknownRequestAndCommand() {
        let server = FakeATTServer(attributes: [])
        server.script = [(Self.bytes("01 bf 0000 06"), nil)]
        let h = GATTHarness(server: server)
        h.linkUp()
        h.server.inject(Self.bytes("bf 00"))
        h.pump()
        h.server.inject(Self.bytes("ff 00"))
        h.pump()
        #expect(h.server.scriptLeft == 0)
        #expect(h.server.received.count == 1)
    }
}
