import Runtime

/// What a `CBPeripheral` has while connected: the link, its request queue, its ATT_MTU, the
/// notification streams it reads, and Write Without Response pacing.
struct PeripheralConnection {
    /// Write Without Response commands queued at once before `canSendWriteWithoutResponse`
    /// turns false.
    static let writeWithoutResponseWindow = 16

    let link: Peripheral
    let requests = RequestQueue()
    var mtu: UInt16 = 23
    var notifications: [UInt16: Task<Void, Never>] = [:]
    var writesWithoutResponse = 0
    var waitingForWriteWindow = false
    /// `cancelPeripheralConnection` was called: the end is reported without an error.
    var cancelled = false

    init(link: Peripheral) {
        self.link = link
    }

    var canSendWriteWithoutResponse: Bool { writesWithoutResponse < Self.writeWithoutResponseWindow }
}
