import Testing
@testable import HostCore
import Wire

/// Controller bring-up and HCI command flow control (Core Spec v5.4 Vol 4, Part E, §4.4, §7).
@Suite struct HostBringUpTests {
    @Test func fullSequenceInOrderThenReady() throws {
        let (host, fake) = makeHost(controller: { $0.filterAcceptListSize = 16 })
        fake.bringUp()
        #expect(fake.opcodes == [
            .reset, .readLocalVersionInformation, .readLocalSupportedCommands, .readLocalSupportedFeatures,
            .readBDADDR, .leReadLocalSupportedFeatures, .leReadBufferSize, .leReadSupportedStates,
            .leReadFilterAcceptListSize, .setEventMask, .leSetEventMask, .leSetRandomAddress,
        ])
        #expect(fake.violations.isEmpty)
        #expect(host.isReady)
        #expect(fake.readyCount == 1)
        guard case let .controllerReady(info)? = fake.events.last else {
            Issue.record("last event is not controllerReady: \(fake.events)")
            return
        }
        #expect(info.aclDataLength == 27)
        #expect(info.aclPacketCount == 64)
        #expect(info.hciVersion == 0x09)
        #expect(info.manufacturer == 0xFFFF)
        #expect(info.publicAddress == fake.publicAddress)
        #expect(info.ownAddress == DeviceAddress(testOwnAddress, type: .randomDevice))
        #expect(info.supportsExtendedAdvertising)
        #expect(info.filterAcceptListSize == 16)
        #expect(fake.pulledHost.aclCreditCapacity == 64)
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        #expect(host.controllerInfo?.leStates == fake.leStates.rawValue)

        // The random static address goes to LE Set Random Address (§7.8.4).
        #expect(fake.commands(LESetRandomAddress.self).first?.randomAddress == testOwnAddress)
    }

    @Test func eventMasksEnableWhatTheHostHandles() throws {
        let (_, fake) = makeHost()
        fake.bringUp()
        let mask = try #require(fake.commands(SetEventMask.self).first)
        // §7.3.1: Disconnection Complete, Encryption Change, Read Remote Version Information
        // Complete, Hardware Error, Data Buffer Overflow, Encryption Key Refresh Complete, LE Meta.
        for code: UInt8 in [0x05, 0x08, 0x0C, 0x10, 0x1A, 0x30, 0x3E] {
            #expect(mask.enables(eventCode: code), "event 0x\(String(code, radix: 16))")
        }
        #expect(mask.eventMask == 0x2000_8000_0200_8890)
        let le = try #require(fake.commands(LESetEventMask.self).first)
        // §7.8.1: subevents 0x01, 0x02, 0x03, 0x04, 0x05 (LE Long Term Key Request), 0x07,
        // 0x0A, 0x0C, 0x0D, 0x14.
        for code: UInt8 in [0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x0A, 0x0C, 0x0D, 0x14] {
            #expect(le.enables(subeventCode: code), "subevent 0x\(String(code, radix: 16))")
        }
        #expect(le.leEventMask == 0x0000_0000_0008_1A5F)
    }

    @Test func leBufferSizeZeroFallsBackToReadBufferSize() {
        let (host, fake) = makeHost(controller: {
            $0.leBufferLength = 0
            $0.leBufferCount = 0
            $0.sharedBufferLength = 251
            $0.sharedBufferCount = 8
        })
        fake.bringUp()
        let i = fake.opcodes.firstIndex(of: .leReadBufferSize)
        #expect(i != nil)
        #expect(i.map { fake.opcodes[$0 + 1] } == .readBufferSize)
        #expect(host.isReady)
        #expect(host.controllerInfo?.aclDataLength == 251)
        #expect(host.controllerInfo?.aclPacketCount == 8)
        #expect(fake.pulledHost.aclCreditCapacity == 8)
    }

    @Test func readBufferSizeNotSentWhenLEHasBuffers() {
        let (_, fake) = makeHost()
        fake.bringUp()
        #expect(!fake.opcodes.contains(.readBufferSize))
    }

    @Test func unknownOptionalCommandsDoNotFailBringUp() {
        // Listed in Supported Commands but answered Unknown HCI Command (0x01).
        let (host, fake) = makeHost(controller: {
            $0.answers[.leReadSupportedStates] = .status(.unknownHCICommand)
            $0.answers[.leReadFilterAcceptListSize] = .status(.unknownHCICommand)
        })
        fake.bringUp()
        #expect(host.isReady)
        #expect(fake.readyCount == 1)
        #expect(fake.controllerFailures.isEmpty)
        #expect(fake.warnings.count == 2)
        #expect(fake.hasWarning(containing: "LE Read Supported States"))
        #expect(host.controllerInfo?.leStates == 0)
        #expect(fake.opcodes.last == .leSetRandomAddress)
    }

    @Test func optionalCommandsNotListedAreSkipped() {
        let (host, fake) = makeHost(controller: {
            // Supported Commands octet 28 bit 3: LE Read Supported States (§6.27).
            $0.supportedCommands[28] &= ~(1 << 3)
            $0.answers[.leReadSupportedStates] = .status(.unknownHCICommand)
        })
        fake.bringUp()
        #expect(host.isReady)
        #expect(!fake.opcodes.contains(.leReadSupportedStates))
        #expect(fake.warnings.isEmpty)
    }

    @Test func writeLEHostSupportOnDualModeControllers() {
        let (host, fake) = makeHost(controller: { $0.lmpFeatures = 1 << 38 })
        fake.bringUp()
        #expect(host.isReady)
        let set = fake.opcodes.firstIndex(of: .setEventMask)
        #expect(set.map { fake.opcodes[$0 + 1] } == .writeLEHostSupport)
        #expect(fake.commands(WriteLEHostSupport.self).first?.leSupportedHost == true)
    }

    @Test func publicOwnAddressSkipsSetRandomAddress() {
        let (host, fake) = makeHost({ $0.ownAddress = .publicAddress })
        fake.bringUp()
        #expect(host.isReady)
        #expect(!fake.opcodes.contains(.leSetRandomAddress))
        #expect(host.controllerInfo?.ownAddress == DeviceAddress(fake.publicAddress, type: .publicDevice))
    }

    @Test func mandatoryCommandFailureFailsTheController() {
        let (host, fake) = makeHost(controller: { $0.answers[.leSetEventMask] = .status(.invalidHCICommandParameters) })
        fake.bringUp()
        #expect(!host.isReady)
        #expect(fake.controllerFailures == [.commandFailed(.leSetEventMask, .invalidHCICommandParameters)])
        #expect(fake.readyCount == 0)
    }

    @Test func commandTimeoutNamesTheOpcode() {
        let (host, fake) = makeHost({ $0.commandTimeout = HostDuration.seconds(2) },
                                    controller: { $0.answers[.readBDADDR] = .silent })
        fake.now = 1_000
        fake.bringUp()
        #expect(fake.opcodes.last == .readBDADDR)
        #expect(host.nextDeadline == 1_000 + HostDuration.seconds(2))
        host.advanceTime(to: 1_000 + HostDuration.seconds(2) - 1)
        #expect(fake.controllerFailures.isEmpty)
        host.advanceTime(to: 1_000 + HostDuration.seconds(2))
        #expect(fake.controllerFailures == [.commandTimeout(.readBDADDR)])
        #expect(HostError.commandTimeout(.readBDADDR).description == "Read BD_ADDR (0x04|0x0009) got no answer from the controller")
        #expect(!host.isReady)
    }

    @Test func resetHasItsOwnLongerTimeout() {
        let (host, fake) = makeHost({ $0.resetTimeout = HostDuration.seconds(5) },
                                    controller: { $0.answers[.reset] = .silent })
        fake.bringUp()
        #expect(host.nextDeadline == HostDuration.seconds(5))
        host.advanceTime(to: HostDuration.seconds(3))
        #expect(fake.controllerFailures.isEmpty)
        host.advanceTime(to: HostDuration.seconds(5))
        #expect(fake.controllerFailures == [.commandTimeout(.reset)])
    }

    @Test func commandsWaitForCredits() {
        // The controller answers Reset granting 0 commands: nothing may follow until it grants
        // more (a NOP Command Complete, opcode 0x0000, §7.7.14).
        let (host, fake) = makeHost(controller: { $0.numHCICommandPackets = 0 })
        host.start(at: 0)
        fake.run()
        #expect(fake.opcodes == [.reset])
        #expect(fake.pulledHost.commandCredits == 0)
        fake.numHCICommandPackets = 1
        fake.grantCredits(1)
        #expect(fake.opcodes == [.reset, .readLocalVersionInformation])
        fake.run()
        #expect(host.isReady)
        #expect(fake.violations.isEmpty)
    }

    @Test func unexpectedCommandCompleteIsAWarning() {
        let (host, fake) = readyHost()
        fake.complete(.leSetScanEnable, [0])
        #expect(fake.hasWarning(containing: "not pending"))
        #expect(host.isReady)
    }

    @Test func malformedEventIsAWarningWithItsBytes() {
        let (host, fake) = readyHost()
        // Command Complete whose length (5) overruns the 2 bytes present.
        host.receive(HCIPacket(type: .event, bytes: [0x0E, 0x05, 0x01, 0x03]), at: 0)
        #expect(fake.warnings.count == 1)
        #expect(fake.warnings.first?.bytes == [0x0E, 0x05, 0x01, 0x03])
    }

    @Test func hardwareErrorFailsTheControllerAndBringsItUpAgain() {
        let (host, fake) = readyHost()
        fake.hardwareError(0x42)
        #expect(fake.controllerFailures.count == 1)
        #expect(fake.controllerFailures.first.map { "\($0)" }?.contains("Hardware Error") == true)
        #expect(fake.opcodes == [.reset])
        #expect(!host.isReady)
        fake.run()
        #expect(host.isReady)
        #expect(fake.readyCount == 1)
        #expect(fake.violations.isEmpty)
    }

    @Test func startAgainAfterFailureRetriesBringUp() {
        let (host, fake) = makeHost(controller: { $0.answers[.leReadBufferSize] = .silent })
        fake.bringUp()
        host.advanceTime(to: HostDuration.seconds(10))
        #expect(fake.controllerFailures == [.commandTimeout(.leReadBufferSize)])
        fake.answers[.leReadBufferSize] = nil
        fake.clearRecord()
        fake.bringUp()
        #expect(host.isReady)
    }
}
