import Testing
@testable import ESPHomeAPI

@Suite struct NoisePresharedKeyTests {
    @Test func a32ByteBase64KeyIsAccepted() throws {
        let key = try NoisePresharedKey(base64: "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=\n")
        #expect(key.bytes == Array(1...32))
    }

    @Test func theAllZeroKeyOfUnprovisionedDevicesIsRefused() {
        #expect(throws: NoisePresharedKey.ParseError.allZero) {
            try NoisePresharedKey(base64: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
        }
    }

    @Test func aKeyOfTheWrongLengthSaysHowToMakeOne() {
        #expect(throws: NoisePresharedKey.ParseError.wrongLength(16)) { try NoisePresharedKey(base64: "AAECAwQFBgcICQoLDA0ODw==") }
        #expect(NoisePresharedKey.ParseError.wrongLength(16).description.contains("openssl rand -base64 32"))
    }

    @Test func textThatIsNotBase64IsRefused() {
        #expect(throws: NoisePresharedKey.ParseError.notBase64) { try NoisePresharedKey(base64: "not a key!") }
        #expect(throws: NoisePresharedKey.ParseError.notBase64) { try NoisePresharedKey(base64: "") }
    }
}
