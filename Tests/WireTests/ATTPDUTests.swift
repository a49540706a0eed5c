import Testing
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }
private func sl(_ s: String) -> ArraySlice<UInt8> { hx(s)[...] }

struct ATTVector: Sendable, CustomTestStringConvertible {
    let section: String
    let hex: String
    let pdu: ATTPDU
    var testDescription: String { section }
}

private let thingyUUID = BluetoothUUID(string: "EF680101-9B35-4933-9B10-52FFA9740042")!
private let thingyLE = "42 00 74 a9 ff 52 10 9b 33 49 35 9b 01 01 68 ef"

@Suite struct ATTPDUTests {
    // Vectors built from the PDU layouts of Core Spec v5.4 Vol 3, Part F, §3.4 (opcode first,
    // little-endian fields).
    static let vectors: [ATTVector] = [
        // §3.4.1.1 Error Response: Read By Group Type Request (0x10) on 0x0001, Attribute Not Found.
        ATTVector(section: "§3.4.1.1 ATT_ERROR_RSP", hex: "01 10 01 00 0a",
                  pdu: .errorResponse(ATTErrorResponse(requestOpcodeInError: .readByGroupTypeRequest,
                                                       attributeHandleInError: 0x0001, errorCode: .attributeNotFound))),
        // §3.4.2.1 / §3.4.2.2 Exchange MTU: client 247, server 23.
        ATTVector(section: "§3.4.2.1 ATT_EXCHANGE_MTU_REQ", hex: "02 f7 00", pdu: .exchangeMTURequest(clientRxMTU: 247)),
        ATTVector(section: "§3.4.2.2 ATT_EXCHANGE_MTU_RSP", hex: "03 17 00", pdu: .exchangeMTUResponse(serverRxMTU: 23)),
        // §3.4.3.1 Find Information Request 0x0001–0xFFFF.
        ATTVector(section: "§3.4.3.1 ATT_FIND_INFORMATION_REQ", hex: "04 01 00 ff ff", pdu: .findInformationRequest(.all)),
        // §3.4.3.2 Find Information Response, format 1: (0x0003, 0x2902), (0x0004, 0x2901).
        ATTVector(section: "§3.4.3.2 ATT_FIND_INFORMATION_RSP format 1", hex: "05 01 03 00 02 29 04 00 01 29",
                  pdu: .findInformationResponse(ATTFindInformationResponse(format: .uuid16, informationData: [
                      ATTInformationData(handle: 3, uuid: .clientCharacteristicConfiguration),
                      ATTInformationData(handle: 4, uuid: .characteristicUserDescription),
                  ]))),
        // §3.4.3.2 format 2: one 128-bit UUID.
        ATTVector(section: "§3.4.3.2 ATT_FIND_INFORMATION_RSP format 2", hex: "05 02 10 00 " + thingyLE,
                  pdu: .findInformationResponse(ATTFindInformationResponse(format: .uuid128, informationData: [
                      ATTInformationData(handle: 0x10, uuid: thingyUUID),
                  ]))),
        // §3.4.3.3 Find By Type Value Request: primary service (0x2800) with value 0x180D.
        ATTVector(section: "§3.4.3.3 ATT_FIND_BY_TYPE_VALUE_REQ", hex: "06 01 00 ff ff 00 28 0d 18",
                  pdu: .findByTypeValueRequest(ATTFindByTypeValueRequest(range: .all, attributeType: .primaryService,
                                                                         attributeValue: sl("0d 18")))),
        // §3.4.3.4 Find By Type Value Response: found 0x000C, group end 0x0014.
        ATTVector(section: "§3.4.3.4 ATT_FIND_BY_TYPE_VALUE_RSP", hex: "07 0c 00 14 00",
                  pdu: .findByTypeValueResponse([ATTHandlesInformation(foundAttributeHandle: 0x0C, groupEndHandle: 0x14)])),
        // §3.4.4.1 Read By Type Request for characteristic declarations (0x2803).
        ATTVector(section: "§3.4.4.1 ATT_READ_BY_TYPE_REQ", hex: "08 01 00 ff ff 03 28",
                  pdu: .readByTypeRequest(ATTAttributeTypeQuery(range: .all, attributeType: .characteristic))),
        ATTVector(section: "§3.4.4.1 ATT_READ_BY_TYPE_REQ 128-bit", hex: "08 01 00 ff ff " + thingyLE,
                  pdu: .readByTypeRequest(ATTAttributeTypeQuery(range: .all, attributeType: thingyUUID))),
        // §3.4.4.2 Read By Type Response: Length 7, two handle–value pairs (characteristic
        // declarations of Device Name and Appearance).
        ATTVector(section: "§3.4.4.2 ATT_READ_BY_TYPE_RSP", hex: "09 07 02 00 02 03 00 00 2a 04 00 02 05 00 01 2a",
                  pdu: .readByTypeResponse([
                      ATTHandleValue(handle: 2, value: sl("02 03 00 00 2a")),
                      ATTHandleValue(handle: 4, value: sl("02 05 00 01 2a")),
                  ])),
        // §3.4.4.3 / §3.4.4.4 Read Request on 0x0003, Read Response "HR".
        ATTVector(section: "§3.4.4.3 ATT_READ_REQ", hex: "0a 03 00", pdu: .readRequest(handle: 3)),
        ATTVector(section: "§3.4.4.4 ATT_READ_RSP", hex: "0b 48 52", pdu: .readResponse(value: sl("48 52"))),
        ATTVector(section: "§3.4.4.4 ATT_READ_RSP empty", hex: "0b", pdu: .readResponse(value: [])),
        // §3.4.4.5 / §3.4.4.6 Read Blob at offset 22.
        ATTVector(section: "§3.4.4.5 ATT_READ_BLOB_REQ", hex: "0c 03 00 16 00", pdu: .readBlobRequest(handle: 3, valueOffset: 22)),
        ATTVector(section: "§3.4.4.6 ATT_READ_BLOB_RSP", hex: "0d 41 42", pdu: .readBlobResponse(partAttributeValue: sl("41 42"))),
        // §3.4.4.7 / §3.4.4.8 Read Multiple of 0x0003 and 0x0005.
        ATTVector(section: "§3.4.4.7 ATT_READ_MULTIPLE_REQ", hex: "0e 03 00 05 00", pdu: .readMultipleRequest(handles: [3, 5])),
        ATTVector(section: "§3.4.4.8 ATT_READ_MULTIPLE_RSP", hex: "0f 01 02 03", pdu: .readMultipleResponse(setOfValues: sl("01 02 03"))),
        // §3.4.4.9 Read By Group Type Request for primary services.
        ATTVector(section: "§3.4.4.9 ATT_READ_BY_GROUP_TYPE_REQ", hex: "10 01 00 ff ff 00 28",
                  pdu: .readByGroupTypeRequest(ATTAttributeTypeQuery(range: .all, attributeType: .primaryService))),
        // §3.4.4.10 Read By Group Type Response: Length 6, GAP 0x0001–0x0007, GATT 0x0008–0x000B.
        ATTVector(section: "§3.4.4.10 ATT_READ_BY_GROUP_TYPE_RSP", hex: "11 06 01 00 07 00 00 18 08 00 0b 00 01 18",
                  pdu: .readByGroupTypeResponse([
                      ATTGroupAttributeData(attributeHandle: 1, endGroupHandle: 7, value: sl("00 18")),
                      ATTGroupAttributeData(attributeHandle: 8, endGroupHandle: 0x0B, value: sl("01 18")),
                  ])),
        // §3.4.4.11 / §3.4.4.12 Read Multiple Variable: values "HR" and 0x07.
        ATTVector(section: "§3.4.4.11 ATT_READ_MULTIPLE_VARIABLE_REQ", hex: "20 03 00 05 00",
                  pdu: .readMultipleVariableRequest(handles: [3, 5])),
        ATTVector(section: "§3.4.4.12 ATT_READ_MULTIPLE_VARIABLE_RSP", hex: "21 02 00 48 52 01 00 07",
                  pdu: .readMultipleVariableResponse(ATTReadMultipleVariableResponse(lengthValueTupleList: sl("02 00 48 52 01 00 07")))),
        // §3.4.5.1 Write Request: enable notifications in the CCCD at 0x002B.
        ATTVector(section: "§3.4.5.1 ATT_WRITE_REQ", hex: "12 2b 00 01 00",
                  pdu: .writeRequest(ATTHandleValue(handle: 0x2B, value: sl("01 00")))),
        ATTVector(section: "§3.4.5.2 ATT_WRITE_RSP", hex: "13", pdu: .writeResponse),
        ATTVector(section: "§3.4.5.3 ATT_WRITE_CMD", hex: "52 2a 00 ff",
                  pdu: .writeCommand(ATTHandleValue(handle: 0x2A, value: sl("ff")))),
        // §3.4.5.4 Signed Write Command: handle, value, 12-byte signature (sign counter + MAC).
        ATTVector(section: "§3.4.5.4 ATT_SIGNED_WRITE_CMD", hex: "d2 2a 00 ff 01 00 00 00 a1 a2 a3 a4 a5 a6 a7 a8",
                  pdu: .signedWriteCommand(ATTSignedWrite(handle: 0x2A, value: sl("ff"),
                                                          authenticationSignature: sl("01 00 00 00 a1 a2 a3 a4 a5 a6 a7 a8")))),
        // §3.4.6.1 / §3.4.6.2 Prepare Write at offset 0, echoed.
        ATTVector(section: "§3.4.6.1 ATT_PREPARE_WRITE_REQ", hex: "16 2a 00 00 00 01 02 03",
                  pdu: .prepareWriteRequest(ATTPrepareWrite(handle: 0x2A, valueOffset: 0, partAttributeValue: sl("01 02 03")))),
        ATTVector(section: "§3.4.6.2 ATT_PREPARE_WRITE_RSP", hex: "17 2a 00 12 00 01 02 03",
                  pdu: .prepareWriteResponse(ATTPrepareWrite(handle: 0x2A, valueOffset: 18, partAttributeValue: sl("01 02 03")))),
        // §3.4.6.3 / §3.4.6.4 Execute Write: write all pending.
        ATTVector(section: "§3.4.6.3 ATT_EXECUTE_WRITE_REQ", hex: "18 01",
                  pdu: .executeWriteRequest(flags: .immediatelyWriteAllPendingPreparedValues)),
        ATTVector(section: "§3.4.6.4 ATT_EXECUTE_WRITE_RSP", hex: "19", pdu: .executeWriteResponse),
        // §3.4.7.1 Handle Value Notification: handle 0x002A, value 06 48 (heart rate 72).
        ATTVector(section: "§3.4.7.1 ATT_HANDLE_VALUE_NTF", hex: "1b 2a 00 06 48",
                  pdu: .handleValueNotification(ATTHandleValue(handle: 0x2A, value: sl("06 48")))),
        // §3.4.7.2 Handle Value Indication: Service Changed at 0x0003 for 0x0001–0xFFFF.
        ATTVector(section: "§3.4.7.2 ATT_HANDLE_VALUE_IND", hex: "1d 03 00 01 00 ff ff",
                  pdu: .handleValueIndication(ATTHandleValue(handle: 3, value: sl("01 00 ff ff")))),
        ATTVector(section: "§3.4.7.3 ATT_HANDLE_VALUE_CFM", hex: "1e", pdu: .handleValueConfirmation),
        // §3.4.7.4 Multiple Handle Value Notification: (0x002A, 2 bytes), (0x002D, 1 byte).
        ATTVector(section: "§3.4.7.4 ATT_MULTIPLE_HANDLE_VALUE_NTF", hex: "23 2a 00 02 00 06 48 2d 00 01 00 64",
                  pdu: .multipleHandleValueNotification([
                      ATTHandleValue(handle: 0x2A, value: sl("06 48")),
                      ATTHandleValue(handle: 0x2D, value: sl("64")),
                  ])),
        // §3.4.8: 0x1F is not assigned; bytes are kept.
        ATTVector(section: "§3.4.8 unassigned opcode", hex: "1f 01 02", pdu: .unknown(opcode: ATTOpcode(0x1F), parameters: sl("01 02"))),
        ATTVector(section: "§3.4.8 unassigned command", hex: "7f", pdu: .unknown(opcode: ATTOpcode(0x7F), parameters: [])),
    ]

    @Test(arguments: vectors)
    func decodesSpecVector(_ v: ATTVector) throws {
        #expect(try ATTPDU.decode(hx(v.hex)) == v.pdu)
    }

    @Test(arguments: vectors)
    func encodesSpecVector(_ v: ATTVector) {
        #expect(v.pdu.encoded == hx(v.hex))
    }

    @Test(arguments: vectors)
    func roundTrips(_ v: ATTVector) throws {
        #expect(try ATTPDU.decode(v.pdu.encoded) == v.pdu)
    }

    @Test(arguments: vectors)
    func decodesFromASliceThatDoesNotStartAtZero(_ v: ATTVector) throws {
        let padded = [0xEE, 0xEE, 0xEE] + hx(v.hex)
        #expect(try ATTPDU.decode(padded[3...]) == v.pdu)
    }

    @Test func everyOpcodeOfTheSummaryHasACase() {
        let modelled = Set(Self.vectors.map(\.pdu.opcode.rawValue))
        for raw in UInt8.min...UInt8.max where ATTOpcode(raw).kind != .unknown {
            #expect(modelled.contains(raw), "opcode \(raw) has no vector")
        }
    }

    // §3.4.7.1: the notification value is a slice of the input, no copy.
    @Test func notificationValueIsASliceOfTheInput() throws {
        let bytes = hx("1b 2a 00 06 48 01 02 03")
        let pdu = try ATTPDU.decode(bytes[...])
        guard case let .handleValueNotification(hv) = pdu else { Issue.record("not a notification"); return }
        let inputBase = bytes.withUnsafeBufferPointer { $0.baseAddress }
        let valueBase = hv.value.withUnsafeBufferPointer { $0.baseAddress }
        #expect(valueBase == inputBase.map { $0 + 3 })
        #expect(hv.value.count == 5)
    }

    @Test func readMultipleVariableValuesAllowATruncatedLastValue() {
        // §3.4.4.12: the list is cut at ATT_MTU − 1, so the last value may be short.
        let response = ATTReadMultipleVariableResponse(lengthValueTupleList: sl("02 00 48 52 05 00 01 02"))
        let values = response.values
        #expect(values.count == 2)
        #expect(values.first == ATTLengthValue(length: 2, value: sl("48 52")))
        #expect(values.last?.isTruncated == true)
        #expect(values.last?.value == sl("01 02"))
        // A lone byte of a cut Length field is ignored.
        #expect(ATTReadMultipleVariableResponse(lengthValueTupleList: sl("01 00 07 03")).values.count == 1)
        #expect(ATTReadMultipleVariableResponse(values: [sl("48 52"), sl("07")]).lengthValueTupleList == sl("02 00 48 52 01 00 07"))
    }

    @Test func findInformationFormatIsChosenFromTheUUIDs() {
        let short = ATTFindInformationResponse(informationData: [ATTInformationData(handle: 1, uuid: .clientCharacteristicConfiguration)])
        #expect(short.format == .uuid16)
        let long = ATTFindInformationResponse(informationData: [
            ATTInformationData(handle: 1, uuid: .clientCharacteristicConfiguration),
            ATTInformationData(handle: 2, uuid: thingyUUID),
        ])
        #expect(long.format == .uuid128)
        #expect(ATTPDU.findInformationResponse(long).encoded.count == 2 + 2 * 18)
    }

    @Test func frameGoesOnTheATTChannel() {
        let frame = ATTPDU.handleValueConfirmation.frame(handle: 0x40)
        #expect(frame.channelID == .att)
        #expect(frame.pduBytes == hx("01 00 04 00 1e"))
    }

    // Malformed inputs: each throws WireError, none traps.
    @Test(arguments: [
        "",                                     // no opcode
        "01 10 01",                             // §3.4.1.1 truncated Error Response
        "02 f7",                                // §3.4.2.1 truncated MTU
        "02 f7 00 00",                          // trailing byte after fixed parameters
        "04 01 00 ff",                          // §3.4.3.1 truncated range
        "05 03 03 00 02 29",                    // §3.4.3.2 format 3 is reserved
        "05 01",                                // §3.4.3.2 no Information Data
        "05 01 03 00 02",                       // §3.4.3.2 entries do not tile
        "05 02 03 00 02 29",                    // §3.4.3.2 format 2 with a 16-bit UUID
        "06 01 00 ff ff 00",                    // §3.4.3.3 truncated type
        "07",                                   // §3.4.3.4 empty list
        "07 0c 00 14",                          // §3.4.3.4 list does not tile
        "08 01 00 ff ff 03",                    // §3.4.4.1 1-byte UUID
        "08 01 00 ff ff 03 28 00 00",           // §3.4.4.1 4-byte UUID (ATT has no 32-bit form)
        "09 07 02 00 02 03 00 00 2a 04 00",     // §3.4.4.2 entries do not tile the PDU
        "09 01 02",                             // §3.4.4.2 Length below 2
        "09 07",                                // §3.4.4.2 no entries
        "0a 03",                                // §3.4.4.3 truncated handle
        "0c 03 00 16",                          // §3.4.4.5 truncated offset
        "0e 03 00",                             // §3.4.4.7 one handle only
        "0e 03 00 05",                          // §3.4.4.7 odd length
        "10 01 00 ff ff",                       // §3.4.4.9 no group type
        "11 03 01 00 07",                       // §3.4.4.10 Length below 4
        "11 06 01 00 07 00 00",                 // §3.4.4.10 entries do not tile
        "12 2b",                                // §3.4.5.1 truncated handle
        "13 00",                                // §3.4.5.2 bytes after an empty PDU
        "18",                                   // §3.4.6.3 no flags
        "16 2a 00 00",                          // §3.4.6.1 truncated offset
        "1b 2a",                                // §3.4.7.1 truncated handle
        "1e 00",                                // §3.4.7.3 bytes after an empty PDU
        "20 03 00",                             // §3.4.4.11 one handle only
        "23",                                   // §3.4.7.4 empty tuple list
        "23 2a 00 05 00 06",                    // §3.4.7.4 Length overruns the PDU
        "23 2a 00 01 00 06 2d",                 // §3.4.7.4 second tuple truncated
        "d2 2a 00 01 02 03",                    // §3.4.5.4 shorter than the 12-byte signature
    ])
    func malformedThrows(_ hex: String) {
        #expect(throws: WireError.self) { try ATTPDU.decode(hx(hex)) }
    }
}
