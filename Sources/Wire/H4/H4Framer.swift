/// What `H4Framer` hands back: a whole HCI packet, or bytes it had to skip to find one.
public enum H4FramerOutput: Sendable, Equatable {
    case packet(HCIPacket)
    /// Bytes that are not the start of a packet, with the reason the first of them was rejected.
    /// A run of skipped bytes comes out in chunks of at most `Configuration.maxGarbageChunk`.
    case garbage(bytes: [UInt8], reason: GarbageReason)

    /// Why bytes were skipped.
    public enum GarbageReason: Sendable, Equatable, CustomStringConvertible {
        /// The byte is no HCI packet indicator (Core Spec v5.4 Vol 4, Part A, §2, Table 2.1).
        case unknownPacketType(UInt8)
        /// A valid indicator the configuration says cannot arrive here (a command on a host's
        /// receive path, say).
        case unacceptedPacketType(H4PacketType)
        /// A valid indicator whose header breaks the plausibility rules of `H4Framer`.
        case implausibleHeader(H4PacketType)
        /// The header announces more payload than the configured maximum for its type.
        case oversized(H4PacketType, length: Int)
        /// The input ended (`finish()`) inside a packet that can no longer complete.
        case truncatedAtEnd

        public var description: String {
            switch self {
            case .unknownPacketType(let b): return "unknown packet type " + Hex.number(b, width: 2)
            case .unacceptedPacketType(let t): return "unexpected \(t.name) packet"
            case .implausibleHeader(let t): return "implausible \(t.name) header"
            case .oversized(let t, let length): return "\(t.name) payload of \(length) bytes exceeds the limit"
            case .truncatedAtEnd: return "input ended inside a packet"
            }
        }
    }
}

/// Splits an H4 byte stream (UART transport, Core Spec v5.4 Vol 4, Part A, §2) into HCI packets.
///
/// A serial line or a TCP socket delivers bytes in arbitrary pieces: one byte per read, or many
/// packets at once. The framer buffers whatever it is fed and hands back whole packets in order,
/// so the rest of the stack never sees a partial packet.
///
/// H4 has no synchronisation pattern: after a lost or corrupted byte the only way back in step is
/// to look for something that *looks like* a packet start. Skipped bytes are always reported
/// (`.garbage`) so that a damaged link is visible, never papered over.
///
/// ## Resynchronisation heuristic
/// A position is taken as a packet start when its byte is an accepted packet indicator and the
/// header after it passes these checks (each rules out what a real controller or host never
/// sends; all numbers are from Core Spec v5.4 Vol 4, Part E):
/// - command (§5.4.1): OGF is 0x01…0x08 or 0x3F (vendor), or the opcode is 0x0000 (no-op);
/// - ACL (§5.4.2): handle ≤ 0x0EFF and the Broadcast flag is not the reserved 0b11;
/// - SCO (§5.4.3): handle ≤ 0x0EFF and the two reserved top bits are clear;
/// - event (§5.4.4): event code 0x01…0x5F (the assigned range with room for new codes) or
///   0xFE/0xFF, and for events of fixed layout the parameter length that layout requires
///   (Disconnection Complete and Encryption Change 4, Command Complete ≥ 3, Command Status 4,
///   Hardware Error 1, Number Of Completed Packets 1 + 4·n, Data Buffer Overflow 1, LE Meta ≥ 1);
/// - ISO (§5.4.5): handle ≤ 0x0EFF and the reserved bits of both header words are clear;
/// - the announced payload is within the configured maximum for the type.
/// When fewer bytes than a header are buffered after an indicator, the position is kept as a
/// candidate and the framer waits for more input. A false candidate can still swallow real
/// packets until its announced length is reached; a tight `maxACLDataLength` (the controller's
/// buffer size) shortens that window.
///
/// Memory: the buffer holds the bytes not yet handed back, plus consumed bytes that are
/// discarded (one `memmove` of the live tail) as soon as they outnumber the live ones.
public struct H4Framer: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Largest ACL Data_Total_Length accepted. The field allows 65535; a host that knows its
        /// controller's buffer size can set it lower so that resynchronisation is quicker.
        public var maxACLDataLength: Int
        /// Largest SCO payload (the field is one byte).
        public var maxSCODataLength: Int
        /// Largest ISO_Data_Load_Length (a 14-bit field).
        public var maxISODataLength: Int
        /// Which packet types can arrive; others are garbage. A host reading from a controller
        /// never receives commands, so excluding them makes resynchronisation more reliable.
        public var acceptedTypes: Set<H4PacketType>
        /// Largest garbage chunk reported at once (1 … 1 MiB), so skipped bytes never pile up
        /// unbounded.
        public var maxGarbageChunk: Int

        public init(maxACLDataLength: Int = 65535,
                    maxSCODataLength: Int = 255,
                    maxISODataLength: Int = 16383,
                    acceptedTypes: Set<H4PacketType> = Set(H4PacketType.allCases),
                    maxGarbageChunk: Int = 256) {
            self.maxACLDataLength = maxACLDataLength
            self.maxSCODataLength = maxSCODataLength
            self.maxISODataLength = maxISODataLength
            self.acceptedTypes = acceptedTypes
            self.maxGarbageChunk = maxGarbageChunk
        }

        /// What a host reads from a controller: everything but commands.
        public static var controllerToHost: Configuration {
            Configuration(acceptedTypes: [.acl, .sco, .event, .iso])
        }

        /// What a controller (or a test peer) reads from a host: everything but events.
        public static var hostToController: Configuration {
            Configuration(acceptedTypes: [.command, .acl, .sco, .iso])
        }
    }

    public let configuration: Configuration

    /// Bytes fed and not yet handed back live in `storage[head...]`.
    private var storage: [UInt8] = []
    private var head = 0
    private var inputEnded = false
    // The configuration flattened for the hot path (no hashing per packet).
    private let acceptedMask: UInt8
    private let maxGarbage: Int
    private let maxACL: Int
    private let maxSCO: Int
    private let maxISO: Int

    /// Packets handed back so far.
    public private(set) var packetCount = 0
    /// Bytes reported as garbage so far.
    public private(set) var garbageByteCount = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var mask: UInt8 = 0
        for t in configuration.acceptedTypes { mask |= 1 << (t.rawValue & 7) }
        acceptedMask = mask
        maxGarbage = max(1, min(configuration.maxGarbageChunk, 1 << 20))
        maxACL = max(0, min(configuration.maxACLDataLength, 65535))
        maxSCO = max(0, min(configuration.maxSCODataLength, 255))
        maxISO = max(0, min(configuration.maxISODataLength, 0x3FFF))
    }

    /// Bytes buffered and not yet handed back.
    public var bufferedByteCount: Int { storage.count - head }

    /// Bytes held including consumed ones not yet compacted away (for tests of the memory bound).
    var storageByteCount: Int { storage.count }

    /// Appends bytes in whatever pieces the transport delivered them. Contiguous inputs
    /// (arrays, slices, buffer pointers) are copied in one block.
    public mutating func feed(_ bytes: some Collection<UInt8>) {
        compact()
        inputEnded = false
        storage.append(contentsOf: bytes)
    }

    /// The same for a transport's read buffer, compiled for it here: the generic one is not
    /// specialised across modules, and every HCI read of a stream transport comes this way.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        compact()
        inputEnded = false
        storage.append(contentsOf: bytes)
    }

    /// Marks the end of the input (end of file, closed socket): from now on `next()` also reports
    /// an incomplete tail as `.garbage(…, .truncatedAtEnd)` and resynchronises inside it, so no
    /// byte stays unaccounted for. Feeding again clears the mark.
    public mutating func finish() {
        inputEnded = true
    }

    /// Forgets everything buffered (after the transport was reopened, say). Counters are kept.
    public mutating func reset() {
        storage.removeAll(keepingCapacity: true)
        head = 0
        inputEnded = false
    }

    /// The next complete packet or garbage chunk, or nil when more input is needed. The packet's
    /// bytes are its own copy, so it can be kept as long as wanted.
    public mutating func next() -> H4FramerOutput? {
        guard let step = nextStep() else { return nil }
        switch step {
        case let .packet(type, range):
            return .packet(HCIPacket(type: type, bytes: Array(storage[range])))
        case let .garbage(range, reason):
            return .garbage(bytes: Array(storage[range]), reason: reason)
        }
    }

    /// Like `next()`, but the packet handed to `body` is a slice of the framer's buffer: no copy
    /// and no allocation for the packet. The slice stays valid if `body` keeps it, but keeping it
    /// makes the framer copy its whole buffer at the next `feed`, so copy what you keep.
    public mutating func withNext<R, E: Error>(_ body: (H4FramerOutput) throws(E) -> R) throws(E) -> R? {
        guard let step = nextStep() else { return nil }
        switch step {
        case let .packet(type, range):
            return try body(.packet(HCIPacket(type: type, bytes: storage[range])))
        case let .garbage(range, reason):
            return try body(.garbage(bytes: Array(storage[range]), reason: reason))
        }
    }

    /// The packet as H4 bytes: indicator, then header and payload.
    public static func encode(_ packet: HCIPacket) -> [UInt8] {
        var out: [UInt8] = []
        encode(packet, into: &out)
        return out
    }

    /// Appends the packet as H4 bytes, for batching several packets into one write.
    public static func encode(_ packet: HCIPacket, into buffer: inout [UInt8]) {
        buffer.reserveCapacity(buffer.count + 1 + packet.bytes.count)
        buffer.append(packet.type.rawValue)
        buffer.append(contentsOf: packet.bytes)
    }

    // MARK: - Framing

    private enum Step {
        case packet(H4PacketType, Range<Int>)
        case garbage(Range<Int>, H4FramerOutput.GarbageReason)
    }

    private enum Classification {
        /// A plausible start whose whole packet is `total` bytes long, indicator included.
        case start(H4PacketType, total: Int)
        /// An accepted indicator with too few bytes after it to judge its header yet.
        case needMore
        case reject(H4FramerOutput.GarbageReason)
    }

    private mutating func nextStep() -> Step? {
        let end = storage.count
        guard head < end else { return nil }
        let reason: H4FramerOutput.GarbageReason
        switch classify(at: head, end: end) {
        case let .start(type, total):
            if end - head >= total {
                let range = (head + 1)..<(head + total)
                head += total
                packetCount &+= 1
                return .packet(type, range)
            }
            guard inputEnded else { return nil }
            reason = .truncatedAtEnd
        case .needMore:
            guard inputEnded else { return nil }
            reason = .truncatedAtEnd
        case .reject(let r):
            reason = r
        }
        // Skip to the next position that could start a packet, at most one chunk at a time.
        let limit = min(end, head + maxGarbage)
        var q = head + 1
        while q < limit {
            if case .reject = classify(at: q, end: end) { q += 1 } else { break }
        }
        let range = head..<q
        head = q
        garbageByteCount &+= range.count
        return .garbage(range, reason)
    }

    @inline(__always)
    private func classify(at p: Int, end: Int) -> Classification {
        let b = storage[p]
        guard let type = H4PacketType(rawValue: b) else { return .reject(.unknownPacketType(b)) }
        guard acceptedMask & (1 << (b & 7)) != 0 else { return .reject(.unacceptedPacketType(type)) }
        let headerLength = HCIPacket.headerLength(type)
        guard end - (p + 1) >= headerLength else { return .needMore }
        let header = storage[(p + 1)..<(p + 1 + headerLength)]
        guard Self.isPlausible(type, header: header) else { return .reject(.implausibleHeader(type)) }
        let length = HCIPacket.payloadLength(type, header: header)
        let limit: Int
        switch type {
        case .command, .event: limit = 255
        case .acl: limit = maxACL
        case .sco: limit = maxSCO
        case .iso: limit = maxISO
        }
        guard length <= limit else { return .reject(.oversized(type, length: length)) }
        return .start(type, total: 1 + headerLength + length)
    }

    /// The header checks listed in the type's documentation. `header` is complete.
    private static func isPlausible(_ type: H4PacketType, header: ArraySlice<UInt8>) -> Bool {
        let b = header.startIndex
        let word0 = UInt16(header[b]) | UInt16(header[b + 1]) << 8
        switch type {
        case .command:
            let ogf = word0 >> 10
            return word0 == 0 || (ogf >= 0x01 && ogf <= 0x08) || ogf == 0x3F
        case .acl:
            return word0 & 0x0FFF <= 0x0EFF && word0 >> 14 != 0b11
        case .sco:
            return word0 & 0x0FFF <= 0x0EFF && word0 >> 14 == 0
        case .iso:
            let word1 = UInt16(header[b + 2]) | UInt16(header[b + 3]) << 8
            return word0 & 0x0FFF <= 0x0EFF && word0 & 0x8000 == 0 && word1 & 0xC000 == 0
        case .event:
            let code = header[b]
            let length = Int(header[b + 1])
            switch code {
            case 0x05, 0x08: return length == 4           // Disconnection Complete, Encryption Change
            case 0x0E: return length >= 3                 // Command Complete
            case 0x0F: return length == 4                 // Command Status
            case 0x10, 0x1A: return length == 1           // Hardware Error, Data Buffer Overflow
            case 0x13: return length >= 1 && (length - 1) % 4 == 0   // Number Of Completed Packets
            case 0x3E: return length >= 1                 // LE Meta
            case 0x01...0x5F, 0xFE, 0xFF: return true
            default: return false
            }
        }
    }

    /// Drops consumed bytes once they are at least as many as the live ones, so the buffer never
    /// grows past twice the live data plus one input chunk, and each byte moves O(1) times.
    private mutating func compact() {
        guard head > 0 else { return }
        if head == storage.count {
            // Give back a buffer inflated by one huge burst; keep an ordinary one for reuse.
            storage.removeAll(keepingCapacity: storage.capacity <= 1 << 20)
            head = 0
        } else if head >= storage.count - head {
            storage.removeSubrange(0..<head)
            head = 0
        }
    }
}
