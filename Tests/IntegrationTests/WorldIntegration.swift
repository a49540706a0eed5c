import Testing

/// The product against the Bumble test world (Tests/World): the built `rtstack` as a child
/// process and the async `Central` API in this process. Every test starts its own world
/// (`WorldProcess`) and always stops it; they run one after the other here, since each world is
/// a Python process with its own controllers and the machine has two cores.
///
/// `rtstack` is taken from next to the test executable: build the product first (`swift build`),
/// else the tests fail. When `scripts/world setup` cannot make the venv (Python >= 3.11 with
/// venv, PyPI for bumble==0.0.236) the world tests are skipped with that reason. The capture
/// test needs tshark (installed by scripts/setup).
@Suite("rtstack against the Bumble test world", .serialized)
enum WorldIntegration {
    /// `--adapter tcp:…` for a world.
    static func adapter(_ world: WorldProcess) -> [String] {
        ["--adapter", "tcp:127.0.0.1:\(world.hciPort)"]
    }
}
