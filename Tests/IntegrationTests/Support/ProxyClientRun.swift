import Foundation

/// One run of a Home Assistant client script of the test world (`python -m world.…` in
/// Tests/World, with the venv's aioesphomeapi) to its end or `timeout`: the facts it printed,
/// one JSON object a line, and its standard error for a failure's message.
struct ProxyClientRun {
    var facts: [JSONValue]
    var stderr: String

    /// The first fact of that name.
    func fact(_ name: String) -> JSONValue? { facts.first { $0[name] != nil }?[name] }

    static func run(_ arguments: [String], timeout: Double) async throws -> ProxyClientRun {
        guard let python = ProxyClientVenv.python else { throw IntegrationFailure(ProxyClientVenv.skipReason.description) }
        let child = try PipedChild.start(URL(fileURLWithPath: python), arguments, in: PackagePaths.root.appendingPathComponent("Tests/World"))
        let started = Date()
        while child.process.isRunning, Date().timeIntervalSince(started) < timeout { try await Task.sleep(for: .milliseconds(100)) }
        if child.process.isRunning { child.process.terminate() }
        // What it printed last is read by the collector's thread.
        try await Task.sleep(for: .milliseconds(300))
        return ProxyClientRun(facts: child.out.lines.compactMap(JSONValue.parse), stderr: child.err.text)
    }
}
