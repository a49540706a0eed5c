import Testing
@testable import HostCore
import Wire

/// Scanning, legacy (Core Spec v5.4 Vol 4, Part E, §7.8.10/§7.8.11) and extended
/// (§7.8.64/§7.8.65), and the reports (§7.7.65.2, §7.7.65.13).
@Suite struct HostScanTests {
    var advertisements: (FakeController) -> [AdvertisementReport] = { fake in
        fake.events.compactMap { if case let .advertisement(r) = $0 { return r } else { return nil } }
    }

    @Test func legacyScanWhenTheControllerHasNoExtendedAdvertising() throws {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [.leEncryption] })
        var scan = ScanConfiguration()
        scan.interval = 0x0010
        scan.window = 0x0010
        scan.filterDuplicates = true
        host.startScan(scan, at: 0)
        fake.run()
        #expect(fake.opcodes == [.leSetScanParameters, .leSetScanEnable])
        let p = try #require(fake.commands(LESetScanParameters.self).first)
        #expect(p.scanType == .active)
        #expect(p.scanInterval == 0x0010)
        #expect(p.scanWindow == 0x0010)
        #expect(p.ownAddressType == .randomDevice)
        #expect(fake.commands(LESetScanEnable.self).first == LESetScanEnable(scanEnable: true, filterDuplicates: true))
        #expect(fake.scanningEvents == [true])
        #expect(host.isScanning)

        fake.advertisingReport([
            LEAdvertisingReport(eventType: .advInd, addressType: .randomDevice, address: peer(7).address,
                                data: [0x02, 0x01, 0x06], rssi: -60),
            LEAdvertisingReport(eventType: .scanRsp, addressType: .publicDevice, address: peer(8).address,
                                data: [0x03, 0x09, 0x41, 0x42], rssi: -70),
            LEAdvertisingReport(eventType: .advNonconnInd, addressType: .publicDevice, address: peer(9).address,
                                data: [], rssi: -80),
        ])
        let reports = advertisements(fake)
        #expect(reports.count == 3)
        #expect(reports[0].address == peer(7))
        #expect(reports[0].rssi == -60)
        #expect(reports[0].connectable && reports[0].scannable && !reports[0].isScanResponse)
        #expect(Array(reports[0].data) == [0x02, 0x01, 0x06])
        #expect(reports[1].isScanResponse && !reports[1].connectable)
        #expect(reports[1].address == DeviceAddress(peer(8).address, type: .publicDevice))
        #expect(Array(reports[1].data) == [0x03, 0x09, 0x41, 0x42])
        #expect(!reports[2].connectable && !reports[2].scannable)

        host.stopScan(at: 0)
        fake.run()
        #expect(fake.opcodes.last == .leSetScanEnable)
        #expect(fake.commands(LESetScanEnable.self).last?.scanEnable == false)
        #expect(fake.scanningEvents == [true, false])
        #expect(!host.isScanning)
        #expect(fake.violations.isEmpty)
    }

    @Test func extendedScanWhenSupportedAndPreferred() throws {
        let (host, fake) = readyHost()
        var scan = ScanConfiguration()
        scan.active = false
        host.startScan(scan, at: 0)
        fake.run()
        #expect(fake.opcodes == [.leSetExtendedScanParameters, .leSetExtendedScanEnable])
        let p = try #require(fake.commands(LESetExtendedScanParameters.self).first)
        #expect(p.scanningPHYs == .le1M)
        #expect(p.phys.first?.scanType == .passive)
        #expect(p.phys.first?.scanInterval == 0x0060)
        #expect(p.ownAddressType == .randomDevice)
        #expect(fake.commands(LESetExtendedScanEnable.self).first?.enable == true)
        #expect(fake.scanningEvents == [true])

        fake.extendedAdvertisingReport([
            LEExtendedAdvertisingReport(eventType: .legacyAdvInd, addressType: .randomDevice,
                                        address: peer(1).address, rssi: -50, data: [0x02, 0x01, 0x06]),
            LEExtendedAdvertisingReport(eventType: .legacyScanRspToAdvInd, addressType: .randomDevice,
                                        address: peer(1).address, rssi: -51, data: [0x02, 0x0A, 0x00]),
            LEExtendedAdvertisingReport(eventType: [.connectable], addressType: .publicIdentity,
                                        address: peer(2).address, rssi: -52, data: []),
            // Anonymous advertisers have no address: not reported.
            LEExtendedAdvertisingReport(eventType: [], addressType: .anonymous, address: .zero, rssi: -53, data: []),
        ])
        let reports = advertisements(fake)
        #expect(reports.count == 3)
        #expect(reports[0].connectable && reports[0].scannable && !reports[0].isScanResponse)
        #expect(reports[1].isScanResponse)
        #expect(Array(reports[1].data) == [0x02, 0x0A, 0x00])
        #expect(reports[2].connectable && !reports[2].scannable)
        #expect(reports[2].address.type == .publicDevice && reports[2].isResolved, "the identity the controller resolved, as an identity")

        host.stopScan(at: 0)
        fake.run()
        #expect(fake.commands(LESetExtendedScanEnable.self).last?.enable == false)
        #expect(fake.scanningEvents == [true, false])
    }

    @Test func legacyScanAcceptsExtendedReports() {
        // Bumble answers a legacy scan with LE Extended Advertising Reports.
        let (host, fake) = readyHost()
        var scan = ScanConfiguration()
        scan.preferExtended = false
        host.startScan(scan, at: 0)
        fake.run()
        #expect(fake.opcodes == [.leSetScanParameters, .leSetScanEnable])
        fake.extendedAdvertisingReport([
            LEExtendedAdvertisingReport(eventType: .legacyAdvInd, addressType: .randomDevice,
                                        address: peer(3).address, rssi: -40, data: [0x02, 0x01, 0x06]),
        ])
        #expect(advertisements(fake).map(\.address) == [peer(3)])
    }

    @Test func scanBeforeReadyStartsAfterBringUp() {
        let (host, fake) = makeHost()
        host.startScan(at: 0)
        #expect(fake.sent.isEmpty)
        fake.bringUp()
        #expect(Array(fake.opcodes.suffix(2)) == [.leSetExtendedScanParameters, .leSetExtendedScanEnable])
        #expect(fake.scanningEvents == [true])
    }

    @Test func changingTheScanRestartsIt() throws {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        host.startScan(at: 0)
        fake.run()
        host.startScan(ScanConfiguration(), at: 0)
        fake.run()
        #expect(fake.opcodes.count == 2)  // same configuration: nothing to do
        var passive = ScanConfiguration()
        passive.active = false
        host.startScan(passive, at: 0)
        fake.run()
        #expect(fake.opcodes == [.leSetScanParameters, .leSetScanEnable, .leSetScanEnable,
                                 .leSetScanParameters, .leSetScanEnable])
        #expect(fake.commands(LESetScanParameters.self).last?.scanType == .passive)
        #expect(fake.scanningEvents == [true, false, true])
    }

    @Test func failedScanEnableIsAWarningAndRetried() {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.answers[.leSetScanEnable] = .status(.invalidHCICommandParameters)
        })
        host.startScan(at: 0)
        fake.run()
        #expect(fake.scanningEvents.isEmpty)
        #expect(!host.isScanning)
        #expect(fake.hasWarning(containing: "scanning not started"))
        #expect(fake.opcodes == [.leSetScanParameters, .leSetScanEnable])
        // One try per backoff step, never a tight loop.
        #expect(host.nextDeadline == HostDuration.seconds(1))
        host.advanceTime(to: HostDuration.milliseconds(999))
        fake.run()
        #expect(fake.opcodes.count == 2)
    }

    @Test func scanComesBackAfterAHardwareError() {
        let (host, fake) = readyHost()
        host.startScan(at: 0)
        fake.run()
        fake.clearRecord()
        fake.hardwareError(0x07)
        #expect(fake.scanningEvents == [false])
        #expect(!host.isScanning)
        fake.run()
        #expect(host.isReady)
        #expect(Array(fake.opcodes.suffix(2)) == [.leSetExtendedScanParameters, .leSetExtendedScanEnable])
        #expect(fake.scanningEvents == [false, true])
    }

    @Test func extendedScanPausesWithExtendedCommandsAroundAConnection() {
        let (host, fake) = readyHost(controller: { $0.disallowCreateWhileScanning = true })
        host.startScan(at: 0)
        fake.run()
        fake.clearRecord()
        let link = host.connect(to: peer(4), plan: .noGATT, at: 0)
        fake.run()
        // Never a legacy command once the extended ones are in use (Vol 4, Part E, §3.1.1).
        #expect(fake.opcodes == [.leExtendedCreateConnection, .leSetExtendedScanEnable, .leExtendedCreateConnection])
        fake.connectionComplete(peer: peer(4), handle: 0x0010)
        fake.run()
        #expect(Array(fake.opcodes.suffix(2)) == [.leSetExtendedScanParameters, .leSetExtendedScanEnable])
        #expect(host.state(of: link) == .ready)
        #expect(host.isScanning)
        #expect(fake.violations.isEmpty)
    }
}
