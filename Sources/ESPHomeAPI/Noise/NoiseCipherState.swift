/// One direction of an established Noise session: its key and the count of messages sent in it
/// (the nonce). A counter that would wrap ends the session instead (Noise §5.1).
public struct NoiseCipherState: Sendable {
    private let key: [UInt8]
    private var counter: UInt64 = 0

    init(key: [UInt8]) {
        self.key = key
    }

    mutating func encrypt(_ plaintext: [UInt8], associatedData: [UInt8] = []) throws(NoiseError) -> [UInt8] {
        guard counter < UInt64.max else { throw .nonceExhausted }
        defer { counter += 1 }
        return NoisePrimitives.seal(key: key, counter: counter, associatedData: associatedData, plaintext: plaintext)
    }

    mutating func decrypt(_ ciphertext: [UInt8], associatedData: [UInt8] = []) throws(NoiseError) -> [UInt8] {
        guard counter < UInt64.max else { throw .nonceExhausted }
        guard let plaintext = NoisePrimitives.open(key: key, counter: counter, associatedData: associatedData, ciphertext: ciphertext) else {
            throw .authenticationFailed
        }
        counter += 1
        return plaintext
    }
}
