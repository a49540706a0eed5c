/// What a `.controllerFailed` means to the application, said once for all of them (the run
/// session, `Central`'s bridge, the gateway): the controller never came up, it is gone for good,
/// or the host is resetting it and `.controllerReady` follows.
public enum ControllerFailure: Sendable, Equatable {
    /// Bring-up failed before the controller was ever ready.
    case neverReady
    /// It was ready, failed, and the reset failed too (or the kernel's adapter did not come
    /// back): nothing more comes from this controller until `start(at:)`.
    case lost
    /// It was ready and failed (a Hardware Error, a command timeout): the host is resetting it.
    case resetting

    /// The failure just reported by `host`, which was `ready` at least once before it (or not).
    public init(of host: any Host, wasReady: Bool) {
        if !wasReady {
            self = .neverReady
        } else {
            self = host.hasFailed ? .lost : .resetting
        }
    }

    /// Whether the controller is of no more use (never ready, or lost).
    public var isFinal: Bool { self != .resetting }
}
