import Testing
import HostCore
import Runtime
@testable import RTStackCLI

/// The host core and the Runtime report causes; the CLI says what to do about each.
@Suite struct AdapterAdviceTests {
    @Test func aRefusedPowerOnNamesTheCapabilityAndTheSetcapLine() {
        let text = AdapterAdvice.text(for: HostError.adapter("hci0", .permissionDenied(.setPowered)))
        #expect(text.hasPrefix("hci0: Set Powered failed: Permission Denied (0x14)"), "\(text)")
        #expect(text.contains("CAP_NET_ADMIN"))
        #expect(text.contains("sudo setcap cap_net_admin,cap_net_raw+ep"))
    }

    @Test func rfkillGetsTheUnblockCommandAndAHardBlockSaysItCannotHelp() {
        let soft = AdapterAdvice.text(for: AdapterOpenError.kernel(.rfkillBlocked(index: 0, hard: false)))
        #expect(soft.contains("soft block") && soft.contains("rfkill unblock bluetooth"), "\(soft)")
        #expect(!soft.contains("cannot lift"))
        let hard = AdapterAdvice.text(for: CentralError.unavailable(.kernel(.rfkillBlocked(index: 0, hard: true))))
        #expect(hard.contains("hard block") && hard.contains("cannot lift"), "\(hard)")
        let blocked = AdapterAdvice.text(for: HostError.adapter("hci1", .rfkillBlocked))
        #expect(blocked.contains("rfkill unblock bluetooth"))
    }

    @Test func anAdapterThatDidNotComeBackSaysHowToPowerIt() {
        let text = AdapterAdvice.text(for: CentralError.host(.adapter("hci0", .poweredOff)))
        #expect(text.contains("powered off and did not come back") && text.contains("power on"), "\(text)")
    }

    /// Each errno the kernel gives for a user channel gets its fix.
    static let userChannelCases: [(Int32, [String])] = [
        (19, ["no such adapter", "hci0, hci1"]),                       // ENODEV
        (16, ["systemctl stop bluetooth", "btmgmt --index 3 power off"]),  // EBUSY
        (1, ["CAP_NET_ADMIN", "CAP_NET_RAW", "setcap cap_net_admin,cap_net_raw+ep $(which rtstack)"]),  // EPERM
        (13, ["setcap"]),                                              // EACCES
        (132, ["rfkill unblock bluetooth"]),                           // ERFKILL
        (97, ["modprobe bluetooth", "CONFIG_BT", "--adapter /dev/ttyACM0"]),  // EAFNOSUPPORT
    ]

    @Test(arguments: userChannelCases)
    func theUserChannelsCausesGetTheirFix(code: Int32, phrases: [String]) {
        let cause = HCISocketError(index: 3, operation: .bind, errno: code, present: ["hci0", "hci1"])
        let text = AdapterAdvice.text(for: TransportError.hciSocket(cause))
        #expect(text.hasPrefix(cause.description), "\(text)")
        for phrase in phrases {
            #expect(text.contains(phrase), "\(text) lacks '\(phrase)'")
        }
    }

    @Test func aControllerThatStoppedAnsweringGetsItsRemedy() {
        let e = HostError.commandTimeout(.readBDADDR)
        #expect(AdapterAdvice.text(for: e) == e.description + "; " + e.remedy)
        #expect(AdapterAdvice.text(for: e).contains("check its cable or transport"))
    }
}
