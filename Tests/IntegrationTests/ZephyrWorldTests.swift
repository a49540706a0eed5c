import Foundation
import Testing

extension ZephyrIntegration {
    /// The harness itself: the world comes up as its README says and goes without a trace.
    @Suite("Zephyr world harness")
    struct Harness {
        @Test("run-world reports the pty and the three devices at their fixed addresses; stopping it leaves no process or folder")
        func startsAndStopsCleanly() async throws {
            let world = try await BsimWorld.start(["hr", "esp", "sc_only"])
            do {  // only expectations in here: the world is stopped below whatever they find
                #expect(world.hciPTY.hasPrefix("/dev/pts/"), "\(world.hciPTY)")
                var st = stat()
                #expect(stat(world.hciPTY, &st) == 0 && st.st_mode & S_IFMT == S_IFCHR, "\(world.hciPTY) is not a character device")
                #expect(world.readyMilliseconds > 0 && world.readyMilliseconds < 30_000, "ready_ms \(world.readyMilliseconds)")
                let table = Dictionary(uniqueKeysWithValues: world.devices.map { ($0.name, $0) })
                #expect(table["hr"]?.address == ZephyrIntegration.heartAddress)
                #expect(table["hr"]?.localName == "Zephyr Heartrate Sensor")
                #expect(table["esp"]?.address == ZephyrIntegration.environmentAddress)
                #expect(table["esp"]?.localName == "ESP peripheral")
                #expect(table["sc_only"]?.address == ZephyrIntegration.secureAddress)
                #expect(table["sc_only"]?.localName == "SC only peripheral")
                // While it runs: the devices' processes and BabbleSim's fifo folder exist.
                #expect(world.remains().filter { $0.hasPrefix("process") }.count >= 6, "\(world.remains())")
                #expect(FileManager.default.fileExists(atPath: world.comDirectory))
                #expect(world.log("ctrl").contains("hci_pty: H4 on \(world.hciPTY)"), "ctrl.log: \(world.log("ctrl"))")
            }
            let started = Date()
            await world.stop()
            #expect(seconds(since: started) < 30, "stopping took \(seconds(since: started)) s")
            #expect(world.leftBehind.isEmpty, "run-world left behind: \(world.leftBehind)")
            #expect(world.remains().isEmpty, "still there: \(world.remains())")
            #expect(world.stderrText.contains("world stopped"), "run-world said: \(world.stderrText)")
        }
    }
}
