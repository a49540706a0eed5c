/// Bytes read from a client and not yet framed: both framings read from the front and drop what
/// they have read, without moving the rest on every frame.
struct ReceivedBytes: Sendable {
    private(set) var bytes: [UInt8] = []
    /// Where the unread bytes begin.
    private(set) var start = 0

    var unread: Int { bytes.count - start }

    mutating func append<Bytes: Sequence>(_ more: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: more)
    }

    /// Marks everything before `end` read; the buffer is emptied when nothing is left and moved
    /// down only once 4 KB have been read, so a run of small frames costs no copying.
    mutating func consume(upTo end: Int) {
        start = end
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 4096 {
            bytes.removeFirst(start)
            start = 0
        }
    }
}
