import Foundation
import Capture
import Testing

/// The phone captures in `../shared/captures` beside the checkout (absent in a user's fresh
/// clone, present in CI), and tshark as the second decoder to compare with: for the decoder's
/// tests and the CLI's alike.
public enum SharedCaptures {
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var folder: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/captures")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    public static let names = [
        "ftms-treadmill-android.btsnoop",
        "two-links-envsensing-android.btsnoop",
        "smartwatch-android-dlt201.pcapng",
    ]

    public static func path(_ name: String) -> String? {
        folder.map { $0.appendingPathComponent(name).path }
    }

    public static func records(_ path: String) throws -> [CaptureRecord] {
        var reader = try CaptureFile.open(path: path)
        return try reader.readAll()
    }

    /// tshark on PATH, or where Debian puts it.
    public static let tsharkPath: String? = {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for dir in dirs + ["/usr/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/tshark") {
            return dir + "/tshark"
        }
        return nil
    }()

    /// What `tshark ARGUMENTS…` prints (its standard error dropped): the one place the test
    /// targets run tshark.
    public static func tshark(_ arguments: [String]) throws -> String {
        guard let tshark = tsharkPath else { throw TsharkMissing() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tshark)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Number of frames tshark shows for `file`, optionally with a display filter.
    public static func tsharkCount(_ file: String, filter: String? = nil) throws -> Int {
        try tshark(["-r", file, "-T", "fields", "-e", "frame.number"] + (filter.map { ["-Y", $0] } ?? []))
            .split(separator: "\n").count
    }

    public struct TsharkMissing: Error {}

    /// `tshark -r FILE ARGUMENTS… -T fields` with `-e` per field: one array of values per line.
    public static func tsharkFields(_ file: String, _ arguments: [String] = [], fields: [String]) throws -> [[String]] {
        let out = try tshark(["-r", file] + arguments + ["-T", "fields"] + fields.flatMap { ["-e", $0] })
        return out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}
