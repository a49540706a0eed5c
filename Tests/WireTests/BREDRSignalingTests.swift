import Testing
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }

struct BREDRSignalingVector: Sendable, CustomTestStringConvertible {
    let section: String
    let hex: String
    let command: BREDRSignalingCommand
    var testDescription: String { section }
}

@Suite struct BREDRSignalingTests {
    // Byte vectors built from the command layouts of Core Spec v5.4 Vol 3, Part A, §4 and the
    // option layouts of §5.
    static let vectors: [BREDRSignalingVector] = [
        // §4.1 Command Reject, Command not understood.
        BREDRSignalingVector(section: "§4.1", hex: "01 09 02 00 00 00",
                             command: .commandReject(identifier: 9, L2CAPCommandReject(reason: .commandNotUnderstood))),
        // §4.2 Connection Request: PSM 0x0019 (AVDTP), Source CID 0x0040.
        BREDRSignalingVector(section: "§4.2", hex: "02 03 04 00 19 00 40 00",
                             command: .connectionRequest(identifier: 3, L2CAPConnectionRequest(psm: .avdtp, sourceCID: L2CAPChannelID(0x40)))),
        // §4.3 Connection Response: pending (authorization), then successful with DCID 0x0441.
        BREDRSignalingVector(section: "§4.3 pending", hex: "03 03 08 00 00 00 40 00 01 00 02 00",
                             command: .connectionResponse(identifier: 3, L2CAPConnectionResponse(
                                destinationCID: .null, sourceCID: L2CAPChannelID(0x40), result: .pending, status: 2))),
        BREDRSignalingVector(section: "§4.3 success", hex: "03 03 08 00 41 04 40 00 00 00 00 00",
                             command: .connectionResponse(identifier: 3, L2CAPConnectionResponse(
                                destinationCID: L2CAPChannelID(0x0441), sourceCID: L2CAPChannelID(0x40), result: .successful))),
        // §4.4 Configuration Request: DCID 0x0441, MTU 672 (§5.1).
        BREDRSignalingVector(section: "§4.4 MTU", hex: "04 04 08 00 41 04 00 00 01 02 a0 02",
                             command: .configurationRequest(identifier: 4, L2CAPConfigurationRequest(
                                destinationCID: L2CAPChannelID(0x0441), options: [.mtu(672)]))),
        // §4.4 with a Retransmission and Flow Control option (§5.4): Enhanced Retransmission,
        // TxWindow 10, MaxTransmit 3, 2000 ms, 12000 ms, MPS 1012; and a hinted FCS option (§5.5).
        BREDRSignalingVector(section: "§4.4 ERTM", hex: "04 05 12 00 41 00 00 00 04 09 03 0a 03 d0 07 e0 2e f4 03 85 01 00",
                             command: .configurationRequest(identifier: 5, L2CAPConfigurationRequest(
                                destinationCID: L2CAPChannelID(0x41), options: [
                                    L2CAPConfigurationOption(type: .retransmissionAndFlowControl, value: hx("03 0a 03 d0 07 e0 2e f4 03")[...]),
                                    L2CAPConfigurationOption(type: .frameCheckSequence, isHint: true, value: [0x00]),
                                ]))),
        // §4.5 Configuration Response: SCID 0x0040, continuation, Success, no options.
        BREDRSignalingVector(section: "§4.5", hex: "05 04 06 00 40 00 01 00 00 00",
                             command: .configurationResponse(identifier: 4, L2CAPConfigurationResponse(
                                sourceCID: L2CAPChannelID(0x40), flags: 1, result: .success))),
        // §4.6 / §4.7 Disconnection Request and Response.
        BREDRSignalingVector(section: "§4.6", hex: "06 0a 04 00 41 04 40 00",
                             command: .disconnectionRequest(identifier: 10, L2CAPDisconnectionParameters(
                                destinationCID: L2CAPChannelID(0x0441), sourceCID: L2CAPChannelID(0x40)))),
        BREDRSignalingVector(section: "§4.7", hex: "07 0a 04 00 41 04 40 00",
                             command: .disconnectionResponse(identifier: 10, L2CAPDisconnectionParameters(
                                destinationCID: L2CAPChannelID(0x0441), sourceCID: L2CAPChannelID(0x40)))),
        // §4.8 / §4.9 Echo with data.
        BREDRSignalingVector(section: "§4.8", hex: "08 0b 02 00 aa bb", command: .echoRequest(identifier: 11, data: [0xAA, 0xBB])),
        BREDRSignalingVector(section: "§4.9", hex: "09 0b 00 00", command: .echoResponse(identifier: 11, data: [])),
        // §4.10 Information Request: extended features.
        BREDRSignalingVector(section: "§4.10", hex: "0a 07 02 00 02 00",
                             command: .informationRequest(identifier: 7, .extendedFeatures)),
        // §4.11 Information Response: extended features 0x000002b8, fixed channels 0x86.
        BREDRSignalingVector(section: "§4.11 features", hex: "0b 07 08 00 02 00 00 00 b8 02 00 00",
                             command: .informationResponse(identifier: 7, L2CAPInformationResponse(
                                infoType: .extendedFeatures, data: hx("b8 02 00 00")[...]))),
        BREDRSignalingVector(section: "§4.11 fixed channels", hex: "0b 08 0c 00 03 00 00 00 86 00 00 00 00 00 00 00",
                             command: .informationResponse(identifier: 8, L2CAPInformationResponse(
                                infoType: .fixedChannels, data: hx("86 00 00 00 00 00 00 00")[...]))),
        // An LE-only code on the BR/EDR channel stays unknown, bytes kept.
        BREDRSignalingVector(section: "LE code", hex: "12 01 02 00 aa bb",
                             command: .unknown(code: .connectionParameterUpdateRequest, identifier: 1, data: [0xAA, 0xBB])),
    ]

    @Test(arguments: vectors)
    func decodesSpecVector(_ v: BREDRSignalingVector) throws {
        let (commands, error) = BREDRSignalingCommand.decodeAll(hx(v.hex)[...])
        #expect(error == nil)
        #expect(commands == [v.command])
    }

    @Test(arguments: vectors)
    func encodesSpecVector(_ v: BREDRSignalingVector) {
        #expect(v.command.encoded == hx(v.hex))
    }

    @Test func oneFrameMayCarrySeveralCommands() {
        let (commands, error) = BREDRSignalingCommand.decodeAll(hx("0a 01 02 00 02 00 0a 02 02 00 03 00")[...])
        #expect(error == nil)
        #expect(commands == [.informationRequest(identifier: 1, .extendedFeatures), .informationRequest(identifier: 2, .fixedChannels)])
    }

    @Test func aBrokenCommandKeepsTheOnesBeforeItAndSaysWhy() {
        // A whole Information Request, then a Connection Request cut after its PSM.
        let (commands, error) = BREDRSignalingCommand.decodeAll(hx("0a 01 02 00 02 00 02 03 04 00 19 00")[...])
        #expect(commands == [.informationRequest(identifier: 1, .extendedFeatures)])
        #expect(error == WireError.truncated(field: "signaling Data", needed: 4, available: 2))
        // A fixed-size command with a byte too many, and an option whose length overruns.
        #expect(BREDRSignalingCommand.decodeAll(hx("02 03 05 00 19 00 40 00 ff")[...]).error != nil)
        #expect(BREDRSignalingCommand.decodeAll(hx("04 04 06 00 41 04 00 00 01 02")[...]).error != nil)
    }

    @Test func optionsAndAnswersReadAsTheirFields() throws {
        guard case let .configurationRequest(_, request) = Self.vectors[5].command,
              case let .informationResponse(_, features) = Self.vectors[12].command,
              case let .informationResponse(_, fixed) = Self.vectors[13].command else {
            Issue.record("vectors moved")
            return
        }
        let rfc = try #require(request.options.first?.retransmissionAndFlowControl)
        #expect(rfc == L2CAPRetransmissionAndFlowControl(mode: .enhancedRetransmission, txWindowSize: 10, maxTransmit: 3,
                                                          retransmissionTimeout: 2000, monitorTimeout: 12000, mps: 1012))
        #expect(request.options[1].fcsType == 0 && request.options[1].isHint)
        #expect(request.options[1].description == "Frame Check Sequence: no FCS (hint)")
        #expect(features.extendedFeatures == 0x2B8)
        #expect(L2CAPInformationResponse.featureNames(0x2B8) == [
            "Enhanced Retransmission Mode", "Streaming Mode", "FCS Option", "Fixed Channels", "Unicast Connectionless Data Reception"])
        #expect(fixed.fixedChannels == 0x86)
        let summary = Self.vectors[5].command.summary
        #expect(summary == "ident 5 dcid 0x0041, Retransmission and Flow Control: Enhanced Retransmission mode, TxWindow 10, "
                + "MaxTransmit 3, retransmission time-out 2000 ms, monitor time-out 12000 ms, MPS 1012, Frame Check Sequence: no FCS (hint)")
        #expect(Self.vectors[13].command.summary == "ident 8 Fixed channels supported: 0x0000000000000086 (CIDs 0x0001, 0x0002, 0x0007)")
        #expect(Self.vectors[1].command.summary == "ident 3 psm AVDTP (0x0019) scid 0x0040")
        var fields = FieldList()
        Self.vectors[2].command.describeFields(into: &fields)
        #expect(fields.value(of: "Result") == "Connection pending (0x0001)")
        #expect(fields.value(of: "Status") == "Authorization pending (0x0002)")
    }

    @Test func enhancedControlFieldTellsIFramesFromSFrames() {
        // I-frame: TxSeq 3, ReqSeq 2, SAR start → bits 0x4000 | 2 << 8 | 3 << 1.
        let i = L2CAPEnhancedControlField(rawValue: 0x4206)
        #expect(i.isIFrame && i.txSeq == 3 && i.reqSeq == 2 && i.sar == 1)
        #expect(i.summary == "I-frame TxSeq 3 ReqSeq 2 start")
        // S-frame RR, ReqSeq 4, poll.
        let s = L2CAPEnhancedControlField(rawValue: 0x0411)
        #expect(!s.isIFrame && s.supervisoryName == "RR" && s.reqSeq == 4 && s.poll)
        #expect(s.summary == "S-frame RR ReqSeq 4 poll")
    }

    @Test func connectionCompleteEventDecodesTheLinkType() throws {
        // §7.7.3: Status 0, handle 0x000b, BD_ADDR 12:00:00:00:00:f1 (wire order reversed), ACL, encryption off.
        let event = try HCIEvent.decode(hx("03 0b 00 0b 00 12 00 00 00 00 f1 01 00"))
        guard case let .unknown(.connectionComplete, parameters) = event else {
            Issue.record("HCIEvent decoded it: \(event)")
            return
        }
        var r = ByteReader(parameters)
        let c = try ConnectionCompleteEvent(decoding: &r)
        #expect(c.connectionHandle == 0x000B && c.linkType == ConnectionCompleteEvent.aclLink)
        #expect(c.peer.description == "F1:00:00:00:00:12/public")
        #expect(c.summary == "handle 0x000B ACL peer F1:00:00:00:00:12")
        #expect(c.encoded == Array(parameters))
        // A failed attempt says so.
        var failed = ByteReader(hx("04 00 00 12 00 00 00 00 f1 01 00")[...])
        #expect(try ConnectionCompleteEvent(decoding: &failed).summary == "status Page Timeout (0x04) ACL peer F1:00:00:00:00:12")
    }
}
