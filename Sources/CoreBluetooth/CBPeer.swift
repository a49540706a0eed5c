import Foundation

/// A remote device, named by an identifier that stays the same across runs and processes
/// (`PeripheralIdentifier`).
public class CBPeer: NSObject, @unchecked Sendable {
    // Sendable: its own state is one `let`; a subclass's `var`s follow the rule of `CBManager`
    // (only inside the manager's lock).
    // Sendable: `stableIdentifier` is a `let` of a Sendable type.
    private let stableIdentifier: UUID

    init(identifier: UUID) {
        stableIdentifier = identifier
    }

    public var identifier: UUID { stableIdentifier }
}
