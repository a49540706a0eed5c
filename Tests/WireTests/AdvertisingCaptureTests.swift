import Testing
import TestSupport
@testable import Wire

@Suite struct AdvertisingCaptureTests {
    @Test(.enabled(if: CaptureAdvertising.directory != nil,
                   "skipped: ../shared/captures (real phone captures) not found beside the package"),
          arguments: [("two-links-envsensing-android.btsnoop", 2), ("ftms-treadmill-android.btsnoop", 0)])
    func realAdvertisingReportsParse(_ name: String, _ expectedOverruns: Int) throws {
        let dir = try #require(CaptureAdvertising.directory)
        let file = try #require(CaptureAdvertising.read(dir + "/" + name), "cannot read \(name)")
        let reports = CaptureAdvertising.reports(in: file)
        #expect(reports.count > 100, "\(name): \(reports.count) reports")
        var structures = 0
        var overruns: [ADIssue] = []
        for data in reports {
            let adv = AdvertisingData(data)
            structures += adv.structures.count
            overruns += adv.issues.filter { if case .lengthOverrun = $0 { true } else { false } }
            AdvertisingFuzzTests.exercise(Array(data))
        }
        #expect(structures > reports.count / 2)
        // The envsensing capture holds two reports (frames 1493 and 2181) whose first AD
        // structure claims 32 octets of 25; tshark marks them "Malformed Packet" too.
        #expect(overruns.count == expectedOverruns, "\(name): \(overruns)")
        for issue in overruns {
            #expect(issue == .lengthOverrun(offset: 0, type: .incompleteList16BitServiceUUIDs, length: 32, available: 24))
        }
    }

    // tshark decodes a report of the treadmill capture as Complete Local Name "GVH5072_6FAB",
    // Complete List of 16-bit Service UUIDs 0xEC88, Flags 0x05, manufacturer 0xEC88 data
    // 00 02 d0 17 42 00; and an Apple iBeacon (company 0x004C, data 02 15 …).
    @Test(.enabled(if: CaptureAdvertising.directory != nil,
                   "skipped: ../shared/captures (real phone captures) not found beside the package"))
    func treadmillCaptureHasTheDevicesTsharkShows() throws {
        let dir = try #require(CaptureAdvertising.directory)
        let file = try #require(CaptureAdvertising.read(dir + "/ftms-treadmill-android.btsnoop"))
        let ads = CaptureAdvertising.reports(in: file).map { AdvertisingData($0) }
        let govee = try #require(ads.first { $0.localName == "GVH5072_6FAB" })
        #expect(govee.serviceUUIDs == [BluetoothUUID(0xEC88)])
        #expect(govee.flags == [.leLimitedDiscoverableMode, .brEdrNotSupported])
        #expect(govee.manufacturerData?.company == CompanyIdentifier(0xEC88))
        #expect(govee.manufacturerData.map { Array($0.data) } == [0x00, 0x02, 0xD0, 0x17, 0x42, 0x00])
        let beacon = try #require(ads.first { $0.manufacturerData?.company == .apple })
        #expect(beacon.manufacturerData?.data.prefix(2).elementsEqual([0x02, 0x15]) == true)
    }
}
