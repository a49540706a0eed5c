import Testing
@testable import Wire

@Suite struct ByteReaderTests {
    @Test func readsLittleEndianAndSlicesWithoutCopy() throws {
        var r = ByteReader([0x01, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0xAA, 0xBB])
        #expect(try r.u8() == 0x01)
        #expect(try r.u16() == 0x1234)
        #expect(try r.u32() == 0x1234_5678)
        #expect(r.offset == 7)
        let tail = try r.bytes(2)
        #expect(Array(tail) == [0xAA, 0xBB])
        #expect(r.isAtEnd)
    }

    @Test func truncationThrowsNamingTheField() {
        var r = ByteReader([0x01])
        #expect(throws: WireError.truncated(field: "handle", needed: 2, available: 1)) { try r.u16("handle") }
    }

    @Test func uuidForms() {
        let hr = BluetoothUUID(0x180D)
        #expect(BluetoothUUID(string: "0000180D-0000-1000-8000-00805F9B34FB") == hr)
        #expect(hr.string == "180D")
        let thingy = BluetoothUUID(string: "EF680100-9B35-4933-9B10-52FFA9740042")
        #expect(thingy?.fullString == "EF680100-9B35-4933-9B10-52FFA9740042")
        #expect(thingy.map { BluetoothUUID(littleEndian: $0.littleEndianBytes128[...]) } == thingy)
    }

    @Test func addressText() {
        let a = BDAddress(string: "C0:11:22:33:44:55")
        #expect(a?.bytes == [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0])
        #expect(a?.string == "C0:11:22:33:44:55")
        #expect(a?.randomKind == .staticAddress)
    }
}
