import Foundation

/// The module's log lines, on stderr as iOS writes CoreBluetooth's to the system log: "API
/// MISUSE" for calls iOS ignores, and why the manager's state is not `.poweredOn`.
enum CBLog {
    static func misuse(_ text: String) {
        write("[CoreBluetooth] API MISUSE: " + text)
    }

    static func warning(_ text: String) {
        write("[CoreBluetooth] WARNING: " + text)
    }

    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
