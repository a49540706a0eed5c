import Testing
@testable import ESPHomeAPI

@Suite struct FramingTests {
    @Test func aPlaintextFrameSplitAtEveryByteIsReadWhole() throws {
        var encoded: [UInt8] = []
        PlaintextFraming.encode(APIFrame(type: 300, payload: Array(repeating: 0xAB, count: 200)), into: &encoded)
        // 0x00, length 200 as a two-byte varint, type 300 as a two-byte varint.
        #expect(Array(encoded.prefix(5)) == [0x00, 0xC8, 0x01, 0xAC, 0x02])
        var decoder = PlaintextFraming()
        var frames: [APIFrame] = []
        for byte in encoded {
            decoder.append([byte])
            if let frame = try decoder.next() { frames.append(frame) }
        }
        #expect(frames == [APIFrame(type: 300, payload: Array(repeating: 0xAB, count: 200))])
    }

    @Test func twoPlaintextFramesInOneReadAreBothRead() throws {
        var encoded: [UInt8] = []
        PlaintextFraming.encode(APIFrame(type: 7, payload: []), into: &encoded)
        PlaintextFraming.encode(APIFrame(type: 9, payload: [1]), into: &encoded)
        var decoder = PlaintextFraming()
        decoder.append(encoded)
        #expect(try decoder.next() == APIFrame(type: 7, payload: []))
        #expect(try decoder.next() == APIFrame(type: 9, payload: [1]))
        #expect(try decoder.next() == nil)
    }

    @Test func aNoiseClientOnAPlaintextPortIsToldTheProxyHasNoKey() {
        var decoder = PlaintextFraming()
        decoder.append([0x01, 0x00, 0x00])
        #expect(throws: APIFramingError.badIndicator(found: 0x01, expected: 0x00)) { try decoder.next() }
        #expect(APIFramingError.badIndicator(found: 0x01, expected: 0x00).description.contains("--esphome-key"))
    }

    @Test func aPlaintextFrameLargerThanTheLimitIsRefusedBeforeItsBodyArrives() {
        var decoder = PlaintextFraming()
        decoder.append([0x00, 0xFF, 0xFF, 0x03, 0x07])   // 65,535 bytes announced
        #expect(throws: APIFramingError.frameTooLarge(length: 65_535, limit: PlaintextFraming.maximumBodyLength)) { try decoder.next() }
    }

    @Test func aVarintThatNeverEndsIsAMalformedHeader() {
        var decoder = PlaintextFraming()
        decoder.append([0x00, 0x80, 0x80, 0x80, 0x80])
        #expect(throws: APIFramingError.malformedHeader) { try decoder.next() }
    }

    @Test func aNoiseFrameWaitsForItsLastByte() throws {
        var encoded: [UInt8] = []
        NoiseFraming.encode([1, 2, 3], into: &encoded)
        #expect(encoded == [0x01, 0x00, 0x03, 1, 2, 3])
        var decoder = NoiseFraming()
        decoder.append(encoded.dropLast())
        #expect(try decoder.next(limit: 128) == nil)
        decoder.append([3])
        #expect(try decoder.next(limit: 128) == [1, 2, 3])
    }

    @Test func aPlaintextClientOnAKeyedPortIsToldToUseTheKey() {
        var decoder = NoiseFraming()
        decoder.append([0x00])
        #expect(throws: APIFramingError.badIndicator(found: 0x00, expected: 0x01)) { try decoder.next(limit: 128) }
        #expect(APIFramingError.badIndicator(found: 0x00, expected: 0x01).description.contains("requires encryption"))
    }

    @Test func aHandshakeFrameLongerThanAHandshakeIsRefused() {
        var decoder = NoiseFraming()
        decoder.append([0x01, 0x10, 0x00])
        #expect(throws: APIFramingError.frameTooLarge(length: 4096, limit: 128)) { try decoder.next(limit: NoiseFraming.maximumHandshakeLength) }
    }
}
