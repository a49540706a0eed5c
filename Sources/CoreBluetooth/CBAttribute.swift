import Foundation

/// A service, characteristic or descriptor of a peer's database: its type, and the lock of the
/// manager that found it (which guards the subclasses' state, see `CBManager`).
public class CBAttribute: NSObject, @unchecked Sendable {
    // Sendable: `uuid` and `lock` are `let`s of Sendable types; subclasses keep the rule of
    // `CBManager` for their `var`s.
    public let uuid: CBUUID
    let lock: NSRecursiveLock

    init(uuid: CBUUID, lock: NSRecursiveLock) {
        self.uuid = uuid
        self.lock = lock
    }
}
