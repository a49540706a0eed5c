// Shared by every libFuzzer harness (compiled into each harness binary by scripts/fuzz; not a
// SwiftPM target). A harness reads its input through `FuzzInput`, a cursor that never traps and
// answers zeros once the bytes run out, so any byte string is a valid program for the harness.

/// A forgiving cursor over the fuzzer's bytes: reads past the end give zeros and `isAtEnd`.
struct FuzzInput {
    let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        if let data, size > 0 {
            bytes = Array(UnsafeBufferPointer(start: data, count: size))
        } else {
            bytes = []
        }
    }

    var isAtEnd: Bool { position >= bytes.count }
    var remainingCount: Int { max(0, bytes.count - position) }

    mutating func u8() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }

    /// Up to `n` bytes (fewer at the end of the input).
    mutating func take(_ n: Int) -> [UInt8] {
        let n = max(0, min(n, remainingCount))
        defer { position += n }
        return Array(bytes[position..<(position + n)])
    }

    /// A length-prefixed chunk: one length byte, then that many bytes.
    mutating func chunk() -> [UInt8] { take(Int(u8())) }

    /// A chunk with a 16-bit length, capped at `limit`.
    mutating func chunk16(limit: Int) -> [UInt8] { take(min(Int(u16()), limit)) }

    mutating func rest() -> [UInt8] { take(remainingCount) }
}

/// Stops the fuzzer with a message when an invariant breaks: libFuzzer reports the trap as a
/// crash and saves the input. Only harnesses trap; the code under test must never.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
               file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
        fatalError("invariant broken: " + message(), file: file, line: line)
    }
}
