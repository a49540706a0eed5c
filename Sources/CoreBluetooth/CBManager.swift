import Foundation

/// What every manager has: its state and the app's authorization. On Linux one lock per
/// manager guards the state of the manager and of every peripheral and attribute it made
/// (`lock`), so the API may be called from any thread, as on iOS.
open class CBManager: NSObject, @unchecked Sendable {
    // Sendable: every stored `var` of this class and of the objects that share `lock` is read
    // and written only inside `lock.guarded`; `CoreBluetoothThreadingTests` calls the API
    // from many threads while values arrive.
    let lock = NSRecursiveLock()
    var storedState: CBManagerState = .unknown
    var storedAuthorization: CBManagerAuthorization = .allowedAlways

    override init() {
        super.init()
    }

    open var state: CBManagerState { lock.guarded { storedState } }

    /// `.denied` once opening the adapter failed for lack of permission, else `.allowedAlways`.
    open var authorization: CBManagerAuthorization { lock.guarded { storedAuthorization } }

    /// As on iOS 13.1+: the app's authorization, without a manager. Linux has no per-app
    /// consent; the process's capabilities decide, which only opening the adapter can tell.
    open class var authorization: CBManagerAuthorization { .allowedAlways }
}

extension NSRecursiveLock {
    /// Runs `body` holding the lock.
    func guarded<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
