import Testing
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }

struct SignalingVector: Sendable, CustomTestStringConvertible {
    let section: String
    let hex: String
    let command: LESignalingCommand
    var testDescription: String { section }
}

@Suite struct L2CAPSignalingTests {
    // Byte vectors built from the command layouts of Core Spec v5.4 Vol 3, Part A, §4:
    // Code (1), Identifier (1), Length (2), Data.
    static let vectors: [SignalingVector] = [
        // §4.1 Command Reject, reason 0x0000 Command not understood, no data.
        SignalingVector(section: "§4.1 not understood", hex: "01 02 02 00 00 00",
                        command: .commandReject(identifier: 2, L2CAPCommandReject(reason: .commandNotUnderstood))),
        // §4.1 Command Reject, reason 0x0001 Signaling MTU exceeded, Actual MTU 23.
        SignalingVector(section: "§4.1 MTU exceeded", hex: "01 03 04 00 01 00 17 00",
                        command: .commandReject(identifier: 3, .signalingMTUExceeded(actualMTU: 23))),
        // §4.1 Command Reject, reason 0x0002 Invalid CID in request, local 0x0040, remote 0x0041.
        SignalingVector(section: "§4.1 invalid CID", hex: "01 04 06 00 02 00 40 00 41 00",
                        command: .commandReject(identifier: 4, .invalidCIDInRequest(localCID: 0x40, remoteCID: 0x41))),
        // §4.6 Disconnection Request: Destination CID 0x0040, Source CID 0x0041.
        SignalingVector(section: "§4.6", hex: "06 05 04 00 40 00 41 00",
                        command: .disconnectionRequest(identifier: 5, L2CAPDisconnectionParameters(
                            destinationCID: L2CAPChannelID(0x40), sourceCID: L2CAPChannelID(0x41)))),
        // §4.7 Disconnection Response echoes the CIDs.
        SignalingVector(section: "§4.7", hex: "07 05 04 00 40 00 41 00",
                        command: .disconnectionResponse(identifier: 5, L2CAPDisconnectionParameters(
                            destinationCID: L2CAPChannelID(0x40), sourceCID: L2CAPChannelID(0x41)))),
        // §4.20 Connection Parameter Update Request: interval 6–12 (7.5–15 ms), latency 0,
        // timeout 500 (5 s).
        SignalingVector(section: "§4.20", hex: "12 01 08 00 06 00 0c 00 00 00 f4 01",
                        command: .connectionParameterUpdateRequest(identifier: 1, L2CAPConnectionParameterUpdateRequest(
                            intervalMin: 6, intervalMax: 12, peripheralLatency: 0, timeoutMultiplier: 500))),
        // §4.21 Connection Parameter Update Response: accepted, rejected.
        SignalingVector(section: "§4.21 accepted", hex: "13 01 02 00 00 00",
                        command: .connectionParameterUpdateResponse(identifier: 1, result: .accepted)),
        SignalingVector(section: "§4.21 rejected", hex: "13 01 02 00 01 00",
                        command: .connectionParameterUpdateResponse(identifier: 1, result: .rejected)),
        // §4.22 LE Credit Based Connection Request: SPSM 0x0080, SCID 0x0040, MTU 512, MPS 247,
        // 10 credits.
        SignalingVector(section: "§4.22", hex: "14 07 0a 00 80 00 40 00 00 02 f7 00 0a 00",
                        command: .leCreditBasedConnectionRequest(identifier: 7, L2CAPLECreditBasedConnectionRequest(
                            spsm: 0x80, sourceCID: L2CAPChannelID(0x40), mtu: 512, mps: 247, initialCredits: 10))),
        // §4.23 LE Credit Based Connection Response: DCID 0x0041, MTU 512, MPS 247, 5 credits,
        // result 0x0000; then a refusal 0x0002 with zeroed fields.
        SignalingVector(section: "§4.23 success", hex: "15 07 0a 00 41 00 00 02 f7 00 05 00 00 00",
                        command: .leCreditBasedConnectionResponse(identifier: 7, L2CAPLECreditBasedConnectionResponse(
                            destinationCID: L2CAPChannelID(0x41), mtu: 512, mps: 247, initialCredits: 5, result: .successful))),
        SignalingVector(section: "§4.23 refused", hex: "15 08 0a 00 00 00 00 00 00 00 00 00 02 00",
                        command: .leCreditBasedConnectionResponse(identifier: 8, L2CAPLECreditBasedConnectionResponse(
                            destinationCID: .null, mtu: 0, mps: 0, initialCredits: 0, result: .spsmNotSupported))),
        // §4.24 Flow Control Credit Ind: CID 0x0040, 3 credits.
        SignalingVector(section: "§4.24", hex: "16 09 04 00 40 00 03 00",
                        command: .flowControlCreditInd(identifier: 9, L2CAPFlowControlCreditInd(cid: L2CAPChannelID(0x40), credits: 3))),
        // §4.8 Echo Request is not an LE command: it stays unknown, bytes kept.
        SignalingVector(section: "§4.8 as unknown", hex: "08 0a 02 00 aa bb",
                        command: .unknown(code: .echoRequest, identifier: 10, data: [0xAA, 0xBB][...])),
        // §4.25 Credit Based Connection Request: SPSM 0x0027 (EATT), MTU 64, MPS 64,
        // 10 credits, Source CIDs 0x0040 and 0x0041.
        SignalingVector(section: "§4.25", hex: "17 0b 0c 00 27 00 40 00 40 00 0a 00 40 00 41 00",
                        command: .creditBasedConnectionRequest(identifier: 11, L2CAPCreditBasedConnectionRequest(
                            spsm: 0x27, mtu: 64, mps: 64, initialCredits: 10,
                            sourceCIDs: [L2CAPChannelID(0x40), L2CAPChannelID(0x41)]))),
        // §4.25 with no Source CID at all: the fixed part alone still decodes.
        SignalingVector(section: "§4.25 no CIDs", hex: "17 0c 08 00 27 00 40 00 40 00 0a 00",
                        command: .creditBasedConnectionRequest(identifier: 12, L2CAPCreditBasedConnectionRequest(
                            spsm: 0x27, mtu: 64, mps: 64, initialCredits: 10, sourceCIDs: []))),
        // §4.26 Credit Based Connection Response: MTU 100, MPS 30, 5 credits, result 0x0004
        // (some refused), Destination CIDs 0x0050 and 0x0000 (the second refused).
        SignalingVector(section: "§4.26", hex: "18 0b 0c 00 64 00 1e 00 05 00 04 00 50 00 00 00",
                        command: .creditBasedConnectionResponse(identifier: 11, L2CAPCreditBasedConnectionResponse(
                            mtu: 100, mps: 30, initialCredits: 5, result: .someRefusedInsufficientResources,
                            destinationCIDs: [L2CAPChannelID(0x50), .null]))),
        // §4.27 Credit Based Reconfigure Request: MTU 512, MPS 100, CIDs 0x0040, 0x0041, 0x0042.
        SignalingVector(section: "§4.27", hex: "19 0d 0a 00 00 02 64 00 40 00 41 00 42 00",
                        command: .creditBasedReconfigureRequest(identifier: 13, L2CAPCreditBasedReconfigureRequest(
                            mtu: 512, mps: 100,
                            destinationCIDs: [L2CAPChannelID(0x40), L2CAPChannelID(0x41), L2CAPChannelID(0x42)]))),
        // §4.28 Credit Based Reconfigure Response: 0x0001 (MTU reduction not allowed).
        SignalingVector(section: "§4.28", hex: "1a 0d 02 00 01 00",
                        command: .creditBasedReconfigureResponse(identifier: 13, result: .mtuReductionNotAllowed)),
    ]

    @Test(arguments: vectors)
    func decodesSpecVector(_ v: SignalingVector) throws {
        let bytes = hx(v.hex)
        #expect(try LESignalingCommand.decode(bytes[...]) == v.command)
    }

    @Test(arguments: vectors)
    func encodesSpecVector(_ v: SignalingVector) {
        #expect(v.command.encoded == hx(v.hex))
    }

    @Test(arguments: vectors)
    func roundTrips(_ v: SignalingVector) throws {
        #expect(try LESignalingCommand.decode(v.command.encoded) == v.command)
    }

    @Test func accessorsAndTypedRejectData() throws {
        let cmd = try LESignalingCommand.decode(hx("01 03 04 00 01 00 17 00"))
        #expect(cmd.code == .commandReject && cmd.identifier == 3)
        guard case let .commandReject(_, reject) = cmd else { Issue.record("not a reject"); return }
        #expect(reject.actualMTU == 23)
        #expect(reject.invalidCIDs == nil)
        let cids = L2CAPCommandReject.invalidCIDInRequest(localCID: 0x40, remoteCID: 0x41).invalidCIDs
        #expect(cids?.local == 0x40 && cids?.remote == 0x41)
    }

    @Test func lengthShorterThanDataThrows() {
        // Length says 2 but 3 data bytes follow.
        #expect(throws: WireError.self) { try LESignalingCommand.decode(hx("13 01 02 00 00 00 ff")) }
    }

    @Test func lengthLongerThanDataThrows() {
        #expect(throws: WireError.truncated(field: "signaling Data", needed: 8, available: 2)) {
            try LESignalingCommand.decode(hx("12 01 08 00 06 00"))
        }
    }

    @Test func fixedSizeCommandWithWrongLengthThrows() {
        // Consistent Length field, but a Connection Parameter Update Response has 2 bytes.
        #expect(throws: WireError.self) { try LESignalingCommand.decode(hx("13 01 03 00 00 00 ff")) }
        #expect(throws: WireError.self) { try LESignalingCommand.decode(hx("16 01 02 00 40 00")) }
        #expect(throws: WireError.self) { try LESignalingCommand.decode(hx("01 01 01 00 00")) }
    }

    @Test func creditBasedCIDListWithAnOddOctetThrows() {
        // A Credit Based Connection Request whose CID list ends in half a CID.
        #expect(throws: WireError.self) { try LESignalingCommand.decode(hx("17 01 0b 00 27 00 40 00 40 00 0a 00 40 00 41")) }
        // A Reconfigure Response with 3 data octets.
        #expect(throws: WireError.self) { try LESignalingCommand.decode(hx("1a 01 03 00 00 00 ff")) }
        // A Reconfigure Request shorter than its fixed MTU and MPS.
        #expect(throws: WireError.self) { try LESignalingCommand.decode(hx("19 01 02 00 00 02")) }
    }

    @Test func creditBasedFieldsAndResults() throws {
        let rsp = try LESignalingCommand.decode(hx("18 0b 0c 00 64 00 1e 00 05 00 04 00 50 00 00 00"))
        var fields = FieldList()
        rsp.describeFields(into: &fields)
        #expect(fields.value(of: "Destination CID") == "0x0050, 0x0000")
        #expect(fields.value(of: "Result") == "Some connections refused – insufficient resources available (0x0004)")
        #expect(rsp.summary == "ident 11 dcid 0x0050, 0x0000 mtu 100 mps 30 credits 5 Some connections refused – insufficient resources available")
        #expect(L2CAPCreditBasedConnectionResult.someRefusedInsufficientResources.opensChannels)
        #expect(!L2CAPCreditBasedConnectionResult.insufficientEncryption.opensChannels)
        #expect(L2CAPCreditBasedConnectionResult.pendingAuthentication.isPending)
        #expect(L2CAPCreditBasedReconfigureResult(0x0003).name == "Reconfiguration failed – one or more Destination CIDs invalid")
        #expect(L2CAPCreditBasedReconfigureResult(0x0009).name == "Reserved")
    }

    @Test func truncatedHeaderThrows() {
        #expect(throws: WireError.self) { try LESignalingCommand.decode(hx("12 01 08")) }
        #expect(throws: WireError.self) { try LESignalingCommand.decode([]) }
    }

    @Test func readerDecodingTakesOneCommand() throws {
        var r = ByteReader(hx("13 01 02 00 00 00 13 02 02 00 01 00"))
        #expect(try LESignalingCommand.decode(from: &r).identifier == 1)
        #expect(try LESignalingCommand.decode(from: &r).identifier == 2)
        #expect(r.isAtEnd)
    }

    @Test func namesFollowTheSpecification() {
        #expect(L2CAPSignalingCode.connectionParameterUpdateRequest.name == "Connection Parameter Update Request")
        #expect(L2CAPSignalingCode.flowControlCreditInd.specIdentifier == "L2CAP_FLOW_CONTROL_CREDIT_IND")
        #expect(L2CAPCommandRejectReason.signalingMTUExceeded.name == "Signaling MTU exceeded")
        #expect(L2CAPCommandRejectReason(0x0009).name == "Reserved")
        #expect(L2CAPConnectionParameterUpdateResult.rejected.name == "Connection Parameters rejected")
        #expect(L2CAPLECreditBasedConnectionResult.spsmNotSupported.name == "Connection refused – SPSM not supported")
        #expect(L2CAPLECreditBasedConnectionResult.unacceptableParameters.rawValue == 0x000B)
        #expect(L2CAPLECreditBasedConnectionResult.encryptionKeySizeTooShort.description
                == "Connection refused – encryption key size too short (0x0007)")
    }

    @Test func fieldsNameValues() throws {
        let cmd = try LESignalingCommand.decode(hx("12 01 08 00 06 00 0c 00 00 00 f4 01"))
        var fields = FieldList()
        cmd.describeFields(into: &fields)
        #expect(fields.value(of: "Code") == "Connection Parameter Update Request (0x12)")
        #expect(fields.value(of: "Interval Min") == "6 (7.50 ms)")
        #expect(fields.value(of: "Timeout Multiplier") == "500 (5000 ms)")
        #expect(cmd.name == "Connection Parameter Update Request")
        #expect(cmd.summary == "ident 1 interval 6-12 latency 0 timeout 500")

        let rsp = try LESignalingCommand.decode(hx("15 07 0a 00 41 00 00 02 f7 00 05 00 00 00"))
        var rspFields = FieldList()
        rsp.describeFields(into: &rspFields)
        #expect(rspFields.value(of: "Result") == "Connection successful (0x0000)")
        #expect(rspFields.value(of: "Destination CID") == "0x0041")
    }

    @Test func frameGoesOnTheLESignalingChannel() {
        let frame = LESignalingCommand.connectionParameterUpdateResponse(identifier: 1, result: .accepted).frame(handle: 0x40)
        #expect(frame.channelID == .leSignaling)
        #expect(frame.pduBytes == hx("06 00 05 00 13 01 02 00 00 00"))
    }
}
