import Foundation

/// Waits on the main actor, letting the main queue run (it is what delivers a nil-queue
/// CoreBluetooth delegate's calls), until `condition` holds; false after `seconds`.
@MainActor
public func eventually(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > end { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
