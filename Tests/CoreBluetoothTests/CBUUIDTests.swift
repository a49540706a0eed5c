import CoreBluetooth
import Foundation
import Testing

@Suite("CBUUID")
struct CBUUIDTests {
    @Test("16-, 32- and 128-bit forms of one UUID are equal, hash alike and print in the shortest form")
    func formsAreEqual() {
        let short = CBUUID(string: "180D")
        let prefixed = CBUUID(string: "0x180d")
        let long = CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FB")
        let thirtyTwo = CBUUID(string: "0000180D")
        #expect(short == long && short == prefixed && short == thirtyTwo)
        #expect(Set([short, long, prefixed, thirtyTwo]).count == 1)
        #expect(long.uuidString == "180D")
        #expect(short.data == Data([0x18, 0x0D]))
        #expect(CBUUID(string: "0001FEAA").uuidString == "0001FEAA")
        #expect(CBUUID(string: "0001FEAA").data == Data([0x00, 0x01, 0xFE, 0xAA]))
        #expect(short != CBUUID(string: "180F"))
    }

    @Test("A 128-bit vendor UUID keeps its full form, and data and init(data:) round-trip every width")
    func vendorUUIDRoundTrips() {
        let thingy = CBUUID(string: "ef680200-9b35-4933-9b10-52ffa9740042")
        #expect(thingy.uuidString == "EF680200-9B35-4933-9B10-52FFA9740042")
        #expect(thingy.data.count == 16 && thingy.data.first == 0xEF && thingy.data.last == 0x42)
        for u in [thingy, CBUUID(string: "2A37"), CBUUID(string: "0001FEAA")] {
            #expect(CBUUID(data: u.data) == u)
        }
        let nsuuid = UUID(uuidString: "EF680200-9B35-4933-9B10-52FFA9740042")!
        #expect(CBUUID(nsuuid: nsuuid) == thingy)
    }

    @Test("Text that is no UUID gives the nil UUID rather than a crash")
    func badTextIsNotFatal() {
        #expect(CBUUID(string: "heart").uuidString == "00000000-0000-0000-0000-000000000000")
        #expect(CBUUID(data: Data([1, 2, 3])).uuidString == "00000000-0000-0000-0000-000000000000")
    }
}
