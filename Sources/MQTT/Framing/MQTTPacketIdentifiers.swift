/// The Packet Identifiers (MQTT 3.1.1 §2.3.1, 1 to 65535) of one connection: a new one is never
/// one still awaiting its acknowledgement, however long that message has been in flight.
/// A bit per identifier (8 KiB), so taking and releasing one costs a few instructions.
struct MQTTPacketIdentifiers {
    private var inUse = [UInt64](repeating: 0, count: 1024)
    private var last: UInt16 = 0
    private(set) var count = 0

    /// The next free identifier after the last one taken; nil when all 65,535 are in use.
    mutating func take() -> UInt16? {
        guard count < 65535 else { return nil }
        var id = last
        repeat {
            id = id == 65535 ? 1 : id + 1
        } while isInUse(id)
        last = id
        inUse[Int(id >> 6)] |= 1 << UInt64(id & 63)
        count += 1
        return id
    }

    /// Frees `id`; whether it was in use (an acknowledgement of an unknown id is not).
    @discardableResult
    mutating func release(_ id: UInt16) -> Bool {
        guard id != 0, isInUse(id) else { return false }
        inUse[Int(id >> 6)] &= ~(1 << UInt64(id & 63))
        count -= 1
        return true
    }

    func isInUse(_ id: UInt16) -> Bool {
        inUse[Int(id >> 6)] & (1 << UInt64(id & 63)) != 0
    }
}
