/// Bytes accepted by `write` that the descriptor could not take yet, kept in order and bounded.
///
/// In the common case nothing is queued: `write` sends straight from the caller's buffer and
/// this queue stays empty without allocating. It fills only when the kernel buffer is full
/// (a slow UART, RTS/CTS holding us off, a busy TCP peer).
///
/// For `.packets` framing the queue remembers packet lengths so each queued packet goes out
/// as one `write(2)`; a datagram-like descriptor would otherwise see merged or split packets.
struct WriteQueue {
    private var storage: [UInt8] = []
    private var head = 0
    private var packetLengths: [Int] = []
    private var packetHead = 0
    let limit: Int
    let keepsPacketBoundaries: Bool

    init(limit: Int, keepsPacketBoundaries: Bool) {
        self.limit = limit
        self.keepsPacketBoundaries = keepsPacketBoundaries
    }

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }

    /// Whether `byteCount` more bytes fit under the limit.
    func accepts(_ byteCount: Int) -> Bool { byteCount <= limit - count }

    /// Appends bytes; the caller checked `accepts` first.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        storage.append(contentsOf: bytes)
        if keepsPacketBoundaries { packetLengths.append(bytes.count) }
    }

    /// Outcome of one attempt to hand bytes to the descriptor.
    enum SendResult {
        case sent(Int)
        case wouldBlock
        case failed(TransportError)
    }

    /// Sends queued bytes through `send` until the queue is empty or the descriptor is full.
    mutating func flush(_ send: (UnsafeRawBufferPointer) -> SendResult) throws(TransportError) {
        while !isEmpty {
            let chunkEnd = keepsPacketBoundaries ? head + packetLengths[packetHead] : storage.count
            let result = storage.withUnsafeBytes { all in
                send(UnsafeRawBufferPointer(rebasing: all[head..<chunkEnd]))
            }
            switch result {
            case .sent(let n):
                if keepsPacketBoundaries {
                    // A packet descriptor takes all or nothing; count a short send as sent
                    // (it cannot be resumed) so the queue never wedges.
                    head = chunkEnd
                    packetHead += 1
                } else {
                    head += n
                }
            case .wouldBlock:
                compact()
                return
            case .failed(let error):
                throw error
            }
        }
        storage.removeAll(keepingCapacity: true)
        packetLengths.removeAll(keepingCapacity: true)
        head = 0
        packetHead = 0
    }

    /// Drops sent bytes once they dominate the storage, so a long-lived backlog stays bounded.
    private mutating func compact() {
        if head > 4096 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        if packetHead > 64 && packetHead * 2 > packetLengths.count {
            packetLengths.removeFirst(packetHead)
            packetHead = 0
        }
    }

    mutating func removeAll() {
        storage = []
        packetLengths = []
        head = 0
        packetHead = 0
    }
}
