import Testing
@testable import Wire

@Suite struct AddressParsingTests {
    @Test func parsesPublicAndRandom() throws {
        let p = try DeviceAddress(parsing: "00:1B:DC:0A:0B:0C/public")
        #expect(p.type == .publicDevice)
        #expect(p.address.bytes == [0x0C, 0x0B, 0x0A, 0xDC, 0x1B, 0x00])
        #expect(p.description == "00:1B:DC:0A:0B:0C/public")
        let r = try DeviceAddress(parsing: " c0:11:22:33:44:55/Random ")
        #expect(r.type == .randomDevice)
        #expect(r.description == "C0:11:22:33:44:55/random")
        #expect(try DeviceAddress(parsing: "C0-11-22-33-44-55/random") == r)
        // Text written by `description` parses back to the same value.
        #expect(try DeviceAddress(parsing: r.description) == r)
        #expect(DeviceAddress(string: p.description) == p)
    }

    @Test func defaultTypeAppliesOnlyWithoutSuffix() throws {
        #expect(try DeviceAddress(parsing: "11:22:33:44:55:66", defaultType: .publicDevice).type == .publicDevice)
        #expect(try DeviceAddress(parsing: "C1:22:33:44:55:66/random", defaultType: .publicDevice).type == .randomDevice)
    }

    @Test func errorsNameWhatWasWrong() {
        #expect(throws: DeviceAddressParseError.empty) { try DeviceAddress(parsing: "  ") }
        #expect(throws: DeviceAddressParseError.missingType("11:22:33:44:55:66")) {
            try DeviceAddress(parsing: "11:22:33:44:55:66")
        }
        #expect(throws: DeviceAddressParseError.unknownType("static")) {
            try DeviceAddress(parsing: "11:22:33:44:55:66/static")
        }
        #expect(throws: DeviceAddressParseError.wrongGroupCount(5)) {
            try DeviceAddress(parsing: "11:22:33:44:55/public")
        }
        #expect(throws: DeviceAddressParseError.wrongGroupCount(7)) {
            try DeviceAddress(parsing: "11:22:33:44:55:66:77/public")
        }
        #expect(throws: DeviceAddressParseError.badGroup(index: 2, text: "3G")) {
            try DeviceAddress(parsing: "11:22:3G:44:55:66/public")
        }
        #expect(throws: DeviceAddressParseError.badGroup(index: 0, text: "+1")) {
            try DeviceAddress(parsing: "+1:22:33:44:55:66/public")
        }
        #expect(throws: DeviceAddressParseError.badGroup(index: 5, text: "666")) {
            try DeviceAddress(parsing: "11:22:33:44:55:666/public")
        }
        #expect(throws: DeviceAddressParseError.badGroup(index: 1, text: "")) {
            try DeviceAddress(parsing: "11::33:44:55:66/public")
        }
        #expect(DeviceAddress(string: "nonsense") == nil)
        #expect(DeviceAddressParseError.missingType("x").description == "\"x\" has no address type: append /public or /random")
    }

    // Core Spec v5.4 Vol 6, Part B, §1.3.2: the two most significant bits of a random address
    // tell its kind: 0b11 static, 0b01 resolvable private, 0b00 non-resolvable private, 0b10 reserved.
    @Test(arguments: [
        ("C0:11:22:33:44:55", RandomAddressKind.staticAddress, true),
        ("FF:FF:FF:FF:FF:FE", .staticAddress, true),
        ("FF:FF:FF:FF:FF:FF", .staticAddress, false),   // random part all 1
        ("C0:00:00:00:00:00", .staticAddress, false),   // random part all 0
        ("4A:BC:DE:12:34:56", .resolvablePrivate, true),
        ("40:00:00:12:34:56", .resolvablePrivate, false), // prand random part all 0
        ("7F:FF:FF:12:34:56", .resolvablePrivate, false), // prand random part all 1
        ("3F:FF:FF:FF:FF:FE", .nonResolvablePrivate, true),
        ("00:00:00:00:00:00", .nonResolvablePrivate, false),
        ("3F:FF:FF:FF:FF:FF", .nonResolvablePrivate, false),
        ("80:11:22:33:44:55", .reserved, false),
    ])
    func randomAddressKinds(_ text: String, _ kind: RandomAddressKind, _ valid: Bool) throws {
        let device = try DeviceAddress(parsing: text + "/random")
        #expect(device.address.randomKind == kind)
        #expect(device.address.isValidRandomAddress == valid, "\(device.address.randomAddressProblem ?? "")")
        #expect(device.kindName == kind.name)
        #expect((device.randomAddressProblem == nil) == valid)
        // A public address with the same bits is never judged by the random rules.
        #expect(DeviceAddress(device.address, type: .publicDevice).randomAddressProblem == nil)
        #expect(DeviceAddress(device.address, type: .publicDevice).kindName == "public")
    }

    @Test func resolvablePrivateAddressParts() throws {
        // prand = upper 24 bits, hash = lower 24 bits (Vol 6, Part B, §1.3.2.2).
        let a = try #require(BDAddress(string: "4A:BC:DE:12:34:56"))
        let parts = try #require(a.resolvablePrivateParts)
        #expect(parts.prand == 0x4A_BCDE)
        #expect(parts.hash == 0x12_3456)
        #expect(BDAddress(string: "C0:11:22:33:44:55")?.resolvablePrivateParts == nil)
    }

    @Test func valueAndRandomConstruction() {
        let a = BDAddress(value: 0xC011_2233_4455)
        #expect(a.string == "C0:11:22:33:44:55")
        #expect(a.value == 0xC011_2233_4455)
        for kind in [RandomAddressKind.staticAddress, .resolvablePrivate, .nonResolvablePrivate, .reserved] {
            let r = BDAddress.random(kind, bits: 0x1234_5678_9ABC)
            #expect(r.randomKind == kind)
            #expect(r.value & 0x3FFF_FFFF_FFFF == 0x1234_5678_9ABC)
        }
    }
}
