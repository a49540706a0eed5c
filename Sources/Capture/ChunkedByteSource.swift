import Glibc

/// Outcome of asking for a run of bytes.
enum TakeResult {
    case bytes(ArraySlice<UInt8>)
    /// The input ended first; `available` bytes were left.
    case short(available: Int)
}

/// Sequential access to a capture through one fixed-size buffer, so memory stays the same
/// for a 100 KB or a 100 GB file.
///
/// Reads use `pread` at an offset kept in this struct, so a copy of a reader is an
/// independent cursor over the same file. A file that grows while being read (a live
/// capture) is picked up: end of file is never latched.
///
/// Over an in-memory array the "buffer" is the array itself and runs are returned as slices
/// of it, without any copy.
struct ChunkedByteSource: Sendable {
    static let defaultChunkSize = 64 * 1024

    /// Bytes of the input from `bufferOffset` on; valid up to `end`.
    private var buffer: [UInt8]
    private var start = 0
    private var end: Int
    private var bufferOffset = 0
    private let file: ReadOnlyFile?
    let chunkSize: Int

    init(file: ReadOnlyFile, chunkSize: Int = defaultChunkSize) {
        self.file = file
        self.chunkSize = max(chunkSize, 32)
        buffer = [UInt8](repeating: 0, count: self.chunkSize)
        end = 0
    }

    init(bytes: [UInt8]) {
        file = nil
        buffer = bytes
        end = bytes.count
        chunkSize = bytes.count
    }

    /// File offset of the next unread byte.
    var offset: Int { bufferOffset + start }
    /// Bytes buffered and not yet consumed.
    var available: Int { end - start }

    /// Makes at least `n` bytes available unless the input ends first, and returns how many
    /// are. `n` must not exceed the chunk size (headers only; payloads go through `take`).
    mutating func fill(_ n: Int) throws(CaptureError) -> Int {
        if end - start >= n { return end - start }
        guard let file else { return end - start }
        if start > 0 {
            let live = end - start
            buffer.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                memmove(base, base + start, live)
            }
            bufferOffset += start
            start = 0
            end = live
        }
        while end < n && end < buffer.count {
            let fileOffset = bufferOffset + end
            let room = buffer.count - end
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.pread(file.descriptor, base + end, room, off_t(fileOffset))
            }
            if got < 0 {
                let code = errno
                if code == EINTR { continue }
                throw CaptureError.ioFailed(operation: "read", offset: fileOffset, errno: code, reason: systemErrorText(code))
            }
            if got == 0 { break }
            end += got
        }
        return end - start
    }

    /// Consumes `n` bytes already made available by `fill`.
    mutating func advance(_ n: Int) {
        start += min(n, end - start)
    }

    /// Byte `i` past the cursor; `i` must be below a count `fill` returned.
    func u8(at i: Int) -> UInt8 { buffer[start + i] }

    func u16(at i: Int, bigEndian: Bool) -> UInt16 {
        let a = UInt16(buffer[start + i]), b = UInt16(buffer[start + i + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(at i: Int, bigEndian: Bool) -> UInt32 {
        let a = UInt32(buffer[start + i]), b = UInt32(buffer[start + i + 1])
        let c = UInt32(buffer[start + i + 2]), d = UInt32(buffer[start + i + 3])
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }

    func u64(at i: Int, bigEndian: Bool) -> UInt64 {
        let first = UInt64(u32(at: i, bigEndian: bigEndian)), second = UInt64(u32(at: i + 4, bigEndian: bigEndian))
        return bigEndian ? first << 32 | second : second << 32 | first
    }

    /// Up to `n` bytes past the cursor without consuming them (for error messages).
    func peek(_ n: Int) -> [UInt8] {
        Array(buffer[start..<(start + min(n, end - start))])
    }

    /// Consumes the next `n` bytes and returns them as a slice: of the buffer over a file (a
    /// run longer than the buffer gets an array of its own), of the input over memory.
    mutating func take(_ n: Int) throws(CaptureError) -> TakeResult {
        if n <= 0 { return .bytes([]) }
        guard let file else {
            if end - start < n { return .short(available: end - start) }
            let out = buffer[start..<(start + n)]
            start += n
            return .bytes(out)
        }
        if n <= chunkSize {
            let have = try fill(n)
            if have < n { return .short(available: have) }
            // A slice of the buffer, not a copy: an array per record cost more than decoding
            // it. The next refill writes into the buffer; if a record still holds it, that
            // write copies the buffer first (copy on write), so no record ever changes.
            let out = buffer[start..<(start + n)]
            start += n
            return .bytes(out)
        }
        // Larger than the buffer: copy what is buffered, read the rest straight into place.
        let buffered = end - start
        var failure: CaptureError? = nil
        var got = buffered
        let readFrom = bufferOffset + end
        let out = [UInt8](unsafeUninitializedCapacity: n) { dest, initialized in
            guard let base = dest.baseAddress else { initialized = 0; return }
            buffer.withUnsafeBytes { src in
                if let s = src.baseAddress, buffered > 0 { memcpy(base, s + start, buffered) }
            }
            while got < n {
                let r = Glibc.pread(file.descriptor, base + got, n - got, off_t(readFrom + got - buffered))
                if r < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    failure = .ioFailed(operation: "read", offset: readFrom + got - buffered, errno: code, reason: systemErrorText(code))
                    break
                }
                if r == 0 { break }
                got += r
            }
            initialized = got
        }
        if let failure { throw failure }
        if got < n {
            // Leave the cursor where it was; the caller reports the truncation and stops.
            return .short(available: got)
        }
        bufferOffset = readFrom + (n - buffered)
        start = 0
        end = 0
        return .bytes(out[...])
    }

    /// Consumes `n` bytes without looking at them (unknown pcapng blocks, options).
    mutating func skip(_ n: Int) throws(CaptureError) -> TakeResult {
        if n <= 0 { return .bytes([]) }
        if end - start >= n {
            start += n
            return .bytes([])
        }
        guard let file else { return .short(available: end - start) }
        let target = offset + n
        if let size = file.size(), size < target {
            return .short(available: max(0, size - offset))
        }
        bufferOffset = target
        start = 0
        end = 0
        return .bytes([])
    }
}
