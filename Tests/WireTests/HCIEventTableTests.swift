import Testing
@testable import Wire

/// One byte vector (bytes after the H4 indicator) and the event it stands for.
struct EventVector: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let expected: HCIEvent

    init(_ name: String, _ bytes: [UInt8], _ expected: HCIEvent) {
        self.name = name
        self.bytes = bytes
        self.expected = expected
    }

    var testDescription: String { name }
}

private let peer = EventFixtures.peer
private let publicPeer = EventFixtures.publicPeer

/// Vectors built by hand from the parameter tables of Core Spec v5.4 Vol 4, Part E, §7.7.
let eventVectors: [EventVector] = [
    // Vol 4, Part E, §7.7.14 Command Complete — Reset (0x0C03) returning Status 0x00.
    EventVector("Command Complete Reset", [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00],
                .commandComplete(CommandCompleteEvent(numHCICommandPackets: 1, commandOpcode: HCIOpcode(rawValue: 0x0C03),
                                                      returnParameters: [0x00]))),
    // §7.7.14 Command Complete — LE Read Buffer Size [v1] (0x2002): Status, 251 bytes, 15 packets.
    EventVector("Command Complete LE Read Buffer Size", [0x0E, 0x07, 0x01, 0x02, 0x20, 0x00, 0xFB, 0x00, 0x0F],
                .commandComplete(CommandCompleteEvent(numHCICommandPackets: 1, commandOpcode: HCIOpcode(rawValue: 0x2002),
                                                      returnParameters: [0x00, 0xFB, 0x00, 0x0F]))),
    // §7.7.14 Command Complete with opcode 0x0000: credits only, no return parameters.
    EventVector("Command Complete NOP", [0x0E, 0x03, 0x05, 0x00, 0x00],
                .commandComplete(CommandCompleteEvent(numHCICommandPackets: 5, commandOpcode: HCIOpcode(rawValue: 0)))),
    // §7.7.15 Command Status — LE Create Connection (0x200D) pending.
    EventVector("Command Status", [0x0F, 0x04, 0x00, 0x01, 0x0D, 0x20],
                .commandStatus(CommandStatusEvent(status: .success, numHCICommandPackets: 1,
                                                  commandOpcode: HCIOpcode(rawValue: 0x200D)))),
    // §7.7.15 Command Status — Command Disallowed (0x0C).
    EventVector("Command Status disallowed", [0x0F, 0x04, 0x0C, 0x01, 0x0D, 0x20],
                .commandStatus(CommandStatusEvent(status: HCIStatus(rawValue: 0x0C), numHCICommandPackets: 1,
                                                  commandOpcode: HCIOpcode(rawValue: 0x200D)))),
    // §7.7.5 Disconnection Complete — handle 0x0040, Remote User Terminated Connection (0x13).
    EventVector("Disconnection Complete", [0x05, 0x04, 0x00, 0x40, 0x00, 0x13],
                .disconnectionComplete(DisconnectionCompleteEvent(connectionHandle: 0x0040, reason: HCIStatus(rawValue: 0x13)))),
    // §7.7.19 Number Of Completed Packets — one handle.
    EventVector("Number Of Completed Packets 1", [0x13, 0x05, 0x01, 0x40, 0x00, 0x01, 0x00],
                .numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: [
                    .init(connectionHandle: 0x0040, numCompletedPackets: 1)]))),
    // §7.7.19 Number Of Completed Packets — two handles, each pair together.
    EventVector("Number Of Completed Packets 2", [0x13, 0x09, 0x02, 0x40, 0x00, 0x02, 0x00, 0x41, 0x00, 0x01, 0x00],
                .numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: [
                    .init(connectionHandle: 0x0040, numCompletedPackets: 2),
                    .init(connectionHandle: 0x0041, numCompletedPackets: 1)]))),
    // §7.7.19 Number Of Completed Packets — Num_Handles 0.
    EventVector("Number Of Completed Packets 0", [0x13, 0x01, 0x00],
                .numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: []))),
    // §7.7.8 Encryption Change [v1] — on (AES-CCM on LE).
    EventVector("Encryption Change v1", [0x08, 0x04, 0x00, 0x40, 0x00, 0x01],
                .encryptionChangeV1(EncryptionChangeV1Event(connectionHandle: 0x0040, encryptionEnabled: .on))),
    // §7.7.8 Encryption Change [v2] (event code 0x59) — key size 16.
    EventVector("Encryption Change v2", [0x59, 0x05, 0x00, 0x40, 0x00, 0x01, 0x10],
                .encryptionChangeV2(EncryptionChangeV2Event(connectionHandle: 0x0040, encryptionEnabled: .on,
                                                            encryptionKeySize: 16))),
    // §7.7.39 Encryption Key Refresh Complete.
    EventVector("Encryption Key Refresh Complete", [0x30, 0x03, 0x00, 0x40, 0x00],
                .encryptionKeyRefreshComplete(EncryptionKeyRefreshCompleteEvent(connectionHandle: 0x0040))),
    // §7.7.12 Read Remote Version Information Complete — version 5.0 (0x09), company 0x000F, subversion 0x1234.
    EventVector("Read Remote Version Information Complete", [0x0C, 0x08, 0x00, 0x40, 0x00, 0x09, 0x0F, 0x00, 0x34, 0x12],
                .readRemoteVersionInformationComplete(ReadRemoteVersionInformationCompleteEvent(
                    connectionHandle: 0x0040, version: 0x09, companyIdentifier: 0x000F, subversion: 0x1234))),
    // §7.7.16 Hardware Error.
    EventVector("Hardware Error", [0x10, 0x01, 0x05], .hardwareError(HardwareErrorEvent(hardwareCode: 0x05))),
    // §7.7.26 Data Buffer Overflow — ACL.
    EventVector("Data Buffer Overflow", [0x1A, 0x01, 0x01], .dataBufferOverflow(DataBufferOverflowEvent(linkType: 0x01))),
    // §7.7.65.1 LE Connection Complete — central, random peer C0:11:22:33:44:55, 30 ms, latency 0, 420 ms.
    EventVector("LE Connection Complete",
                [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                 0x18, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00],
                .le(.connectionComplete(LEConnectionCompleteEvent(
                    connectionHandle: 0x0040, role: .central, peerAddressType: .randomDevice, peerAddress: peer,
                    connectionInterval: 0x0018, peripheralLatency: 0, supervisionTimeout: 0x002A,
                    centralClockAccuracy: .ppm500)))),
    // §7.7.65.2 LE Advertising Report — one ADV_IND, flags AD (02 01 06), RSSI -60 dBm.
    EventVector("LE Advertising Report 1",
                [0x3E, 0x0F, 0x02, 0x01, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0x03, 0x02, 0x01, 0x06, 0xC4],
                .le(.advertisingReport(LEAdvertisingReportEvent(reports: [
                    LEAdvertisingReport(eventType: .advInd, addressType: .randomDevice, address: peer,
                                        data: [0x02, 0x01, 0x06], rssi: -60)])))),
    // §7.7.65.2 LE Advertising Report — two reports, report by report; the second an empty
    // SCAN_RSP from a public address with RSSI not available (127).
    EventVector("LE Advertising Report 2",
                [0x3E, 0x19, 0x02, 0x02,
                 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0x03, 0x02, 0x01, 0x06, 0xC4,
                 0x04, 0x00, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00, 0x7F],
                .le(.advertisingReport(LEAdvertisingReportEvent(reports: [
                    LEAdvertisingReport(eventType: .advInd, addressType: .randomDevice, address: peer,
                                        data: [0x02, 0x01, 0x06], rssi: -60),
                    LEAdvertisingReport(eventType: .scanRsp, addressType: .publicDevice, address: publicPeer,
                                        data: [], rssi: 127)])))),
    // §7.7.65.3 LE Connection Update Complete — 50 ms, latency 0, 2 s.
    EventVector("LE Connection Update Complete",
                [0x3E, 0x0A, 0x03, 0x00, 0x40, 0x00, 0x28, 0x00, 0x00, 0x00, 0xC8, 0x00],
                .le(.connectionUpdateComplete(LEConnectionUpdateCompleteEvent(
                    connectionHandle: 0x0040, connectionInterval: 0x0028, peripheralLatency: 0, supervisionTimeout: 0x00C8)))),
    // §7.7.65.4 LE Read Remote Features Complete — LE_Features 0x41FF.
    EventVector("LE Read Remote Features Complete",
                [0x3E, 0x0C, 0x04, 0x00, 0x40, 0x00, 0xFF, 0x41, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
                .le(.readRemoteFeaturesComplete(LEReadRemoteFeaturesCompleteEvent(connectionHandle: 0x0040,
                                                                                   leFeatures: 0x41FF)))),
    // §7.7.65.5 LE Long Term Key Request — Rand 0x0807060504030201, EDIV 0x1234.
    EventVector("LE Long Term Key Request",
                [0x3E, 0x0D, 0x05, 0x40, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x34, 0x12],
                .le(.longTermKeyRequest(LELongTermKeyRequestEvent(connectionHandle: 0x0040,
                                                                   randomNumber: 0x0807_0605_0403_0201,
                                                                   encryptedDiversifier: 0x1234)))),
    // §7.7.65.6 LE Remote Connection Parameter Request — 7.5–15 ms, latency 0, 5 s.
    EventVector("LE Remote Connection Parameter Request",
                [0x3E, 0x0B, 0x06, 0x40, 0x00, 0x06, 0x00, 0x0C, 0x00, 0x00, 0x00, 0xF4, 0x01],
                .le(.remoteConnectionParameterRequest(LERemoteConnectionParameterRequestEvent(
                    connectionHandle: 0x0040, intervalMin: 6, intervalMax: 12, maxLatency: 0, timeout: 500)))),
    // §7.7.65.7 LE Data Length Change — 251 octets / 2120 µs both ways.
    EventVector("LE Data Length Change",
                [0x3E, 0x0B, 0x07, 0x40, 0x00, 0xFB, 0x00, 0x48, 0x08, 0xFB, 0x00, 0x48, 0x08],
                .le(.dataLengthChange(LEDataLengthChangeEvent(connectionHandle: 0x0040, maxTxOctets: 251, maxTxTime: 2120,
                                                              maxRxOctets: 251, maxRxTime: 2120)))),
    // §7.7.65.10 LE Enhanced Connection Complete [v1] — peer resolved to public identity 11:22:33:44:55:66.
    EventVector("LE Enhanced Connection Complete v1",
                [0x3E, 0x1F, 0x0A, 0x00, 0x40, 0x00, 0x00, 0x02, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
                 0x01, 0x02, 0x03, 0x04, 0x05, 0x46, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x4F,
                 0x18, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00],
                .le(.enhancedConnectionCompleteV1(LEEnhancedConnectionCompleteV1Event(
                    connectionHandle: 0x0040, role: .central, peerAddressType: .publicIdentity, peerAddress: publicPeer,
                    localResolvablePrivateAddress: EventFixtures.address("46:05:04:03:02:01"),
                    peerResolvablePrivateAddress: EventFixtures.address("4F:0E:0D:0C:0B:0A"),
                    connectionInterval: 0x0018, peripheralLatency: 0, supervisionTimeout: 0x002A)))),
    // §7.7.65.10 LE Enhanced Connection Complete [v2] (subevent 0x29) — no advertising set, no sync.
    EventVector("LE Enhanced Connection Complete v2",
                [0x3E, 0x22, 0x29, 0x00, 0x40, 0x00, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                 0x18, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00, 0xFF, 0xFF, 0xFF],
                .le(.enhancedConnectionCompleteV2(LEEnhancedConnectionCompleteV2Event(
                    LEEnhancedConnectionCompleteV1Event(connectionHandle: 0x0040, peerAddressType: .randomDevice,
                                                        peerAddress: peer, connectionInterval: 0x0018,
                                                        supervisionTimeout: 0x002A),
                    advertisingHandle: 0xFF, syncHandle: 0xFFFF)))),
    // §7.7.65.11 LE Directed Advertising Report — ADV_DIRECT_IND to an unresolved RPA 5F:EE:DD:CC:BB:AA.
    EventVector("LE Directed Advertising Report",
                [0x3E, 0x12, 0x0B, 0x01, 0x01, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                 0x01, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0x5F, 0xC4],
                .le(.directedAdvertisingReport(LEDirectedAdvertisingReportEvent(reports: [
                    LEDirectedAdvertisingReport(eventType: .advDirectInd, addressType: .randomDevice, address: peer,
                                                directAddressType: .randomDevice,
                                                directAddress: EventFixtures.address("5F:EE:DD:CC:BB:AA"), rssi: -60)])))),
    // §7.7.65.12 LE PHY Update Complete — LE 2M both ways.
    EventVector("LE PHY Update Complete", [0x3E, 0x06, 0x0C, 0x00, 0x40, 0x00, 0x02, 0x02],
                .le(.phyUpdateComplete(LEPHYUpdateCompleteEvent(connectionHandle: 0x0040, txPHY: .le2M, rxPHY: .le2M)))),
    // §7.7.65.13 LE Extended Advertising Report — a legacy ADV_IND (Event_Type 0x0013) on LE 1M,
    // no ADI, TX power n/a, RSSI -60, no periodic advertising, flags AD.
    EventVector("LE Extended Advertising Report legacy",
                [0x3E, 0x1D, 0x0D, 0x01, 0x13, 0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0,
                 0x01, 0x00, 0xFF, 0x7F, 0xC4, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                 0x03, 0x02, 0x01, 0x06],
                .le(.extendedAdvertisingReport(LEExtendedAdvertisingReportEvent(reports: [
                    LEExtendedAdvertisingReport(eventType: .legacyAdvInd, addressType: .randomDevice, address: peer,
                                                primaryPHY: .le1M, secondaryPHY: .noPackets, advertisingSID: 0xFF,
                                                txPower: 127, rssi: -60, periodicAdvertisingInterval: 0,
                                                directAddressType: .publicDevice, directAddress: .zero,
                                                data: [0x02, 0x01, 0x06])])))),
    // §7.7.65.13 LE Extended Advertising Report — two reports: an extended connectable PDU on
    // LE Coded / LE 2M, SID 3, TX 0 dBm, RSSI -80, periodic 100 ms, data incomplete; then an
    // anonymous one (Address_Type 0xFF) with no data.
    EventVector("LE Extended Advertising Report 2",
                [0x3E, 0x34, 0x0D, 0x02,
                 0x21, 0x00, 0x00, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
                 0x03, 0x02, 0x03, 0x00, 0xB0, 0x50, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                 0x02, 0xAA, 0xBB,
                 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                 0x01, 0x01, 0x05, 0x7F, 0xBA, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                 0x00],
                .le(.extendedAdvertisingReport(LEExtendedAdvertisingReportEvent(reports: [
                    LEExtendedAdvertisingReport(eventType: LEExtendedAdvertisingEventType.connectable.with(dataStatus: .incomplete),
                                                addressType: .publicDevice, address: publicPeer,
                                                primaryPHY: .leCoded, secondaryPHY: .le2M, advertisingSID: 3,
                                                txPower: 0, rssi: -80, periodicAdvertisingInterval: 0x50,
                                                data: [0xAA, 0xBB]),
                    LEExtendedAdvertisingReport(eventType: [], addressType: .anonymous, address: .zero,
                                                primaryPHY: .le1M, secondaryPHY: .le1M, advertisingSID: 5,
                                                txPower: 127, rssi: -70, data: [])])))),
    // §7.7.65.20 LE Channel Selection Algorithm — #2.
    EventVector("LE Channel Selection Algorithm", [0x3E, 0x04, 0x14, 0x40, 0x00, 0x01],
                .le(.channelSelectionAlgorithm(LEChannelSelectionAlgorithmEvent(connectionHandle: 0x0040,
                                                                                 channelSelectionAlgorithm: 0x01)))),
    // §7.7 / §5.4.4: a vendor event (0xFF) keeps its bytes.
    EventVector("Vendor", [0xFF, 0x03, 0x01, 0x02, 0x03], .unknown(.vendor, [0x01, 0x02, 0x03])),
    // §7.7.1 Inquiry Complete: a named event not decoded here keeps its bytes.
    EventVector("Inquiry Complete (undecoded)", [0x01, 0x01, 0x00], .unknown(.inquiryComplete, [0x00])),
    // An unassigned code with no parameters.
    EventVector("Unassigned 0x42", [0x42, 0x00], .unknown(HCIEventCode(0x42), [])),
    // §7.7.65.18 LE Advertising Set Terminated: an LE subevent not decoded here keeps its bytes.
    EventVector("LE Advertising Set Terminated (undecoded)", [0x3E, 0x06, 0x12, 0x00, 0x01, 0x40, 0x00, 0x03],
                .leUnknown(.advertisingSetTerminated, [0x00, 0x01, 0x40, 0x00, 0x03])),
    // An LE subevent code beyond every specification version, without parameters.
    EventVector("LE unassigned subevent 0x7F", [0x3E, 0x01, 0x7F], .leUnknown(LEMetaSubevent(0x7F), [])),
]

@Suite struct HCIEventTableTests {
    @Test(arguments: eventVectors)
    func decodesVector(_ v: EventVector) throws {
        let decoded = try HCIEvent.decode(v.bytes)
        #expect(decoded == v.expected)
        #expect(decoded.code.rawValue == v.bytes[0])
    }

    @Test(arguments: eventVectors)
    func encodesToTheSameBytes(_ v: EventVector) {
        #expect(v.expected.encoded == v.bytes)
    }

    @Test(arguments: eventVectors)
    func roundTrips(_ v: EventVector) throws {
        // encode → decode → equal, and decode → encode → the original bytes.
        #expect(try HCIEvent.decode(v.expected.encoded) == v.expected)
        #expect(try HCIEvent.decode(v.bytes).encoded == v.bytes)
        #expect(v.expected.h4Bytes == [0x04] + v.bytes)
    }

    @Test(arguments: eventVectors)
    func eachParameterStructRoundTripsOnItsOwn(_ v: EventVector) throws {
        // The parameter struct alone (WireCodable) gives the event's parameter bytes.
        var params = ByteWriter()
        v.expected.encodeParameters(into: &params)
        #expect(params.bytes == Array(v.bytes.dropFirst(2)))
        #expect(try HCIEvent.decode(code: v.expected.code, parameters: params.bytes[...]) == v.expected)
    }

    @Test func commandCompleteFieldsAndCredits() throws {
        // Vol 4, Part E, §7.7.14: 0E 04 01 03 0C 00 is Reset completing with Success.
        guard case .commandComplete(let cc) = try HCIEvent.decode([0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]) else {
            Issue.record("not Command Complete")
            return
        }
        #expect(cc.numHCICommandPackets == 1)
        #expect(cc.commandOpcode == HCIOpcode(ogf: 0x03, ocf: 0x0003))
        #expect(Array(cc.returnParameters) == [0x00])
        #expect(cc.leadingStatus == .success)
    }

    @Test func numberOfCompletedPacketsIteratesPairs() throws {
        // Vol 4, Part E, §7.7.19: handles 0x0040 → 2 and 0x0041 → 1.
        guard case .numberOfCompletedPackets(let n) = try HCIEvent.decode(
            [0x13, 0x09, 0x02, 0x40, 0x00, 0x02, 0x00, 0x41, 0x00, 0x01, 0x00]) else {
            Issue.record("not Number Of Completed Packets")
            return
        }
        #expect(n.numHandles == 2)
        #expect(n.entries.map(\.connectionHandle) == [0x0040, 0x0041])
        #expect(n.entries.map(\.numCompletedPackets) == [2, 1])
        #expect(n.entries.reduce(0) { $0 + Int($1.numCompletedPackets) } == 3)
    }

    @Test func advertisingReportsIterateWithSlicesOfTheEvent() throws {
        let bytes: [UInt8] = eventVectors.first { $0.name == "LE Advertising Report 2" }?.bytes ?? []
        guard case .le(.advertisingReport(let e)) = try HCIEvent.decode(bytes) else {
            Issue.record("not LE Advertising Report")
            return
        }
        let reports = Array(e.reports)
        #expect(reports.count == 2)
        #expect(reports.first?.advertiser == DeviceAddress(EventFixtures.peer, type: .randomDevice))
        #expect(reports.first.map { Array($0.data) } == [0x02, 0x01, 0x06])
        // The data is a slice of the event's bytes at the position the layout gives it.
        #expect(reports.first?.data.startIndex == 13)
        #expect(reports.last?.eventType == .scanRsp)
        #expect(reports.last?.rssi == 127)
        #expect(reports.last?.address == EventFixtures.publicPeer)
    }

    @Test func extendedReportLegacyBitsAndDataStatus() throws {
        // Vol 4, Part E, §7.7.65.13: legacy event types 0x13 (ADV_IND), 0x1B (SCAN_RSP to ADV_IND).
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x13).legacyEventType == .advInd)
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x15).legacyEventType == .advDirectInd)
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x12).legacyEventType == .advScanInd)
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x10).legacyEventType == .advNonconnInd)
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x1B).legacyEventType == .scanRsp)
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x1A).legacyEventType == .scanRsp)
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x01).legacyEventType == nil)
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x0021).dataStatus == .incomplete)
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x0041).dataStatus == .truncated)
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x0001).dataStatus == .complete)
    }

    @Test func versionTwoEventsExposeTheirVersionOneFields() throws {
        let v2Bytes = eventVectors.first { $0.name == "LE Enhanced Connection Complete v2" }?.bytes ?? []
        guard case .le(.enhancedConnectionCompleteV2(let e)) = try HCIEvent.decode(v2Bytes) else {
            Issue.record("not LE Enhanced Connection Complete [v2]")
            return
        }
        #expect(e.connectionHandle == 0x0040)
        #expect(e.peer == DeviceAddress(EventFixtures.peer, type: .randomDevice))
        #expect(e.connectionComplete.connectionInterval == 0x0018)
        #expect(e.connectionComplete.supervisionTimeout == 0x002A)
        guard case .encryptionChangeV2(let enc) = try HCIEvent.decode([0x59, 0x05, 0x00, 0x40, 0x00, 0x01, 0x10]) else {
            Issue.record("not Encryption Change [v2]")
            return
        }
        #expect(enc.v1 == EncryptionChangeV1Event(connectionHandle: 0x0040, encryptionEnabled: .on))
        #expect(enc.encryptionKeySize == 16)
    }
}
