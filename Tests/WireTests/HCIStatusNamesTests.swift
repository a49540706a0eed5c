import Testing
@testable import Wire

@Suite struct HCIStatusNamesTests {
    // Core Spec v5.4 Vol 1, Part F, §1.3, Table 1.1.
    @Test(arguments: [
        (UInt8(0x00), "Success"),
        (0x01, "Unknown HCI Command"),
        (0x02, "Unknown Connection Identifier"),
        (0x05, "Authentication Failure"),
        (0x08, "Connection Timeout"),
        (0x0C, "Command Disallowed"),
        (0x0D, "Connection Rejected due to Limited Resources"),
        (0x10, "Connection Accept Timeout Exceeded"),
        (0x12, "Invalid HCI Command Parameters"),
        (0x13, "Remote User Terminated Connection"),
        (0x16, "Connection Terminated By Local Host"),
        (0x1F, "Unspecified Error"),
        (0x22, "LMP Response Timeout / LL Response Timeout"),
        (0x28, "Instant Passed"),
        (0x3B, "Unacceptable Connection Parameters"),
        (0x3D, "Connection Terminated due to MIC Failure"),
        (0x3E, "Connection Failed to be Established / Synchronization Timeout"),
        (0x44, "Operation Cancelled by Host"),
        (0x45, "Packet Too Long"),
        (0x2B, "Reserved 0x2B"),
        (0x31, "Reserved 0x31"),
        (0x33, "Reserved 0x33"),
        (0x46, "Reserved 0x46"),
        (0xFF, "Reserved 0xFF"),
    ])
    func names(_ raw: UInt8, _ name: String) {
        #expect(HCIStatus(rawValue: raw).name == name)
    }

    @Test func everyDefinedCodeIsNamed() {
        let reserved: Set<UInt8> = [0x2B, 0x31, 0x33]
        for raw in UInt8(0x00)...0x45 where !reserved.contains(raw) {
            #expect(HCIStatus(rawValue: raw).specName != nil, "0x\(String(raw, radix: 16)) unnamed")
        }
    }

    @Test func constantsHaveTheSpecValues() {
        #expect(HCIStatus.unknownHCICommand.rawValue == 0x01)
        #expect(HCIStatus.unknownConnectionIdentifier.rawValue == 0x02)
        #expect(HCIStatus.connectionTimeout.rawValue == 0x08)
        #expect(HCIStatus.commandDisallowed.rawValue == 0x0C)
        #expect(HCIStatus.connectionAcceptTimeoutExceeded.rawValue == 0x10)
        #expect(HCIStatus.remoteUserTerminatedConnection.rawValue == 0x13)
        #expect(HCIStatus.connectionTerminatedByLocalHost.rawValue == 0x16)
        #expect(HCIStatus.connectionFailedToBeEstablished.rawValue == 0x3E)
        #expect(HCIStatus.connectionFailedToBeEstablished.name == "Connection Failed to be Established / Synchronization Timeout")
    }

    @Test func descriptionAndHints() {
        #expect(HCIStatus.commandDisallowed.description == "Command Disallowed (0x0C)")
        #expect(HCIStatus.success.description == "Success (0x00)")
        #expect(HCIStatus.commandDisallowed.hint != nil)
        #expect(HCIStatus.connectionFailedToBeEstablished.hint?.contains("advertising") == true)
        #expect(HCIStatus.success.hint == nil)
    }
}
