import Foundation

/// Where things are: the package root (found from this file's path, so the tests run from any
/// working directory) and the built `rtstack` next to the test executable.
enum PackagePaths {
    /// `<root>/Tests/IntegrationTests/Support/PackagePaths.swift` → `<root>`.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // IntegrationTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()

    static var worldScript: URL { root.appendingPathComponent("scripts/world") }

    /// The `rtstack` product of the same build as this test executable (`swift build` puts
    /// both in `.build/<triple>/<configuration>/`).
    static func rtstackBinary() throws -> URL {
        var candidates: [URL] = []
        if let arg0 = CommandLine.arguments.first, !arg0.isEmpty {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let exe = URL(fileURLWithPath: arg0, relativeTo: cwd).standardizedFileURL
            candidates.append(exe.deletingLastPathComponent().appendingPathComponent("rtstack"))
            candidates.append(exe.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("rtstack"))
        }
        for c in candidates where FileManager.default.isExecutableFile(atPath: c.path) { return c }
        throw IntegrationFailure("""
            the rtstack executable is not next to the test executable (looked at \
            \(candidates.map(\.path).joined(separator: ", "))): build the product first \
            (`swift build`, then `swift test`)
            """)
    }

    /// A fresh, empty directory for one test's files.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("rtstack-it-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// A failure of the harness or of the product, with a message that says which.
struct IntegrationFailure: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
