import Foundation

/// What a script prints and how it waits: one fact a line, flushed at once (the caller reads
/// them while the app runs, to act on the world in step with it), and a step that does not
/// happen in time ends the program with "timeout: STEP" and exit status 1.
@MainActor
enum Script {
    static func say(_ line: String) {
        print(line)
        fflush(nil)   // the caller reads each line while the app runs
    }

    /// Lets the main queue run (the delegates' calls arrive on it) until `condition` holds.
    static func wait(_ seconds: Double, for step: String, _ condition: () -> Bool) async {
        let end = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > end {
                say("timeout: \(step) (\(Int(seconds)) s)")
                exit(1)
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    static func pause(_ seconds: Double) async { try? await Task.sleep(for: .seconds(seconds)) }

    static func hex(_ data: Data?) -> String {
        guard let data else { return "nil" }
        return data.map { String(format: "%02X", $0) }.joined()
    }

    /// An error as an iOS app logs it: its domain and code, or "none".
    static func describe(_ error: Error?) -> String {
        guard let error else { return "none" }
        let e = error as NSError
        return "\(e.domain)/\(e.code)"
    }
}
