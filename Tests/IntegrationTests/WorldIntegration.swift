import Testing

/// Every test that starts a world runs in here, one after the other: each world is a Python
/// process with its own controllers, and the machine has two cores.
@Suite("rtstack against the Bumble test world", .serialized)
enum WorldIntegration {
    /// `--adapter tcp:…` for a world.
    static func adapter(_ world: WorldProcess) -> [String] {
        ["--adapter", "tcp:127.0.0.1:\(world.hciPort)"]
    }
}
