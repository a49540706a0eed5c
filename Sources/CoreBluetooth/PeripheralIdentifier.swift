import Foundation
import Wire

/// `CBPeer.identifier` from the device's address: the same UUID for the same address in every
/// run and process (iOS keeps its identifiers in a database; rtstack needs none). The address
/// and its type are spread over 128 bits with two 64-bit FNV-1a hashes (not a cryptographic
/// hash: the identifier hides nothing, it only has to be stable and look like a UUID), marked
/// as a version 8 ("custom") UUID of RFC 9562.
enum PeripheralIdentifier {
    static func uuid(for address: DeviceAddress) -> UUID {
        let bytes = [address.type.isRandom ? UInt8(1) : 0] + address.address.bytes
        func fnv1a(_ seed: UInt64) -> UInt64 {
            var h = seed
            for b in bytes + Array("rtstack.CoreBluetooth".utf8) {
                h ^= UInt64(b)
                h = h &* 0x0000_0100_0000_01B3
            }
            return h
        }
        var high = fnv1a(0xCBF2_9CE4_8422_2325)
        var low = fnv1a(0x84222325CBF29CE4)
        high = (high & ~0xF000) | 0x8000                       // version 8
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000 // variant 10
        var u = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            u[i] = UInt8(truncatingIfNeeded: high >> (56 - 8 * i))
            u[8 + i] = UInt8(truncatingIfNeeded: low >> (56 - 8 * i))
        }
        return UUID(uuid: (u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]))
    }
}
