import Foundation
import Testing
import TestSupport
import Wire
@testable import Capture

/// The real phone captures in `<package>/../shared/captures` (see its README.md).
enum RealCaptures {
    static let packageRoot: String = {
        // #filePath = <package>/Tests/CaptureTests/TestSupport.swift
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let directory = packageRoot + "/../shared/captures"

    static let files = [
        "ftms-treadmill-android.btsnoop",
        "two-links-envsensing-android.btsnoop",
        "smartwatch-android-dlt201.pcapng",
    ]

    static let available: Bool = files.allSatisfy { FileManager.default.fileExists(atPath: directory + "/" + $0) }

    static let skipMessage = "real captures absent: expected them in <package>/../shared/captures"

    static func path(_ name: String) -> String { directory + "/" + name }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }
}

/// Wireshark's command-line reader, the second opinion on packet counts.
enum TShark {
    static let executable = SharedCaptures.tsharkPath

    static var available: Bool { executable != nil }
    static let skipMessage = "tshark not installed (scripts/setup installs it)"

    /// Lines `tshark -r path [-Y filter]` prints, i.e. the packets it decodes (or matches).
    static func count(_ path: String, filter: String? = nil) throws -> Int {
        guard available else { return -1 }
        return try SharedCaptures.tshark(["-r", path] + (filter.map { ["-Y", $0] } ?? [])).utf8.reduce(0) { $0 + ($1 == 0x0a ? 1 : 0) }
    }
}

/// A fresh directory under /tmp, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-capture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let p = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}


/// Builds capture bytes by hand in either byte order.
struct Bytes {
    var bytes: [UInt8] = []
    var bigEndian: Bool

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func raw(_ v: [UInt8]) { bytes.append(contentsOf: v) }
    mutating func u16(_ v: UInt16) {
        let b = [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
        bytes.append(contentsOf: bigEndian ? b.reversed() : b)
    }
    mutating func u32(_ v: UInt32) {
        let b = (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
        bytes.append(contentsOf: bigEndian ? b.reversed() : b)
    }
    mutating func u64(_ v: UInt64) {
        let b = (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
        bytes.append(contentsOf: bigEndian ? b.reversed() : b)
    }
}

/// Every record of `bytes`, failing the test on any error.
func readAllRecords(_ bytes: [UInt8]) throws -> [CaptureRecord] {
    var reader = try CaptureReader(bytes: bytes)
    return try reader.readAll()
}

/// The error the reader throws, or nil when it reads to the end.
func firstError(_ reader: inout CaptureReader) -> (records: [CaptureRecord], error: CaptureError?) {
    var records: [CaptureRecord] = []
    do {
        while let r = try reader.next() { records.append(r) }
        return (records, nil)
    } catch {
        return (records, error)
    }
}

/// The fields a capture round trip must keep (file offsets naturally differ).
struct RecordEssence: Equatable, CustomStringConvertible {
    var timestampMicros: Int64
    var direction: Direction
    var type: H4PacketType
    var bytes: [UInt8]

    init(_ r: CaptureRecord) {
        timestampMicros = r.timestampMicros
        direction = r.direction
        type = r.packet.type
        bytes = Array(r.packet.bytes)
    }

    var description: String { "\(timestampMicros) \(direction.arrow) \(type.name) \(Hex.spaced(bytes))" }
}

extension CaptureRecord {
    var essence: RecordEssence { RecordEssence(self) }
}
