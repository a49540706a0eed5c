import Foundation
import HostCore
import Runtime
import Testing
import Wire

extension WorldIntegration.CentralAPI {
    /// A connect to a present device while one to an absent device is pending: both go on the
    /// controller's Filter Accept List (Core Spec v5.4 Vol 4, Part E, §7.8.12, §7.8.16), so the
    /// present one connects as soon as it is heard instead of after the absent one's timeout.
    @Test("A present device connects while a connect to an absent one is pending (Filter Accept List)")
    func presentDeviceNotHeldBehindAnAbsentOne() async throws {
        let world = try await WorldProcess.start(["--heart", "1", "--speed", "0", "--environment", "0", "--distractors", "0"])
        defer { world.stop() }
        let commands = CommandRecorder()
        try await withCentral(world, sinks: [commands]) { central in
            let absent = DeviceAddress(try #require(BDAddress(string: "C9:00:00:00:00:0A")), type: .randomDevice)
            let heart = DeviceAddress(try #require(BDAddress(string: world.device("Heart 1").address)), type: .randomDevice)
            var plan = LinkPlan()
            plan.discover = false
            plan.connectTimeout = HostDuration.seconds(10)
            let absentPlan = plan
            let pending = Task { try await central.connect(to: absent, plan: absentPlan) }
            // The absent device's create is at the controller first.
            try await Task.sleep(for: .milliseconds(300))
            let start = Date()
            let p = try await withTimeout(8, "connect to Heart 1 with a connect to an absent device pending") {
                try await central.connect(to: heart, plan: absentPlan)
            }
            let elapsed = seconds(since: start)
            print("present device connected after \(Int(elapsed * 1000)) ms with a connect to an absent device pending (its timeout: 10 s)")
            let sent = commands.opcodes
            #expect(sent.contains(0x2010), "LE Clear Filter Accept List sent: \(sent.map { "0x" + String($0, radix: 16) })")
            #expect(sent.filter { $0 == 0x2011 }.count >= 2, "LE Add Device To Filter Accept List for both")
            await p.disconnect()
            // The absent link ends with its own timeout, not before.
            let outcome = await pending.result
            guard case let .failure(error) = outcome,
                  case CentralError.host(.connectTimeout(let a))? = error as? CentralError else {
                Issue.record("the absent link: expected connectTimeout, got \(outcome)")
                return
            }
            #expect(a == absent)
        }
    }
}
