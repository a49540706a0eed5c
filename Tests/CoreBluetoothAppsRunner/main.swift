// cb-apps: the iOS-shaped apps of Tests/CoreBluetoothApps (NSObject delegates, a nil queue,
// nothing of rtstack) run as a program and driven as a user drives them: tap a row, write, End
// Session, toggle devices. It is for a world a test process cannot hold in itself: the VM
// (Tests/VM/corebluetooth-tests.sh) runs it on hci0, the adapter given as on a board, by
// RTSTACK_ADAPTER and RTSTACK_BACKEND. It prints what the app saw, one fact a line, for the
// caller to check against what the peer did; exit status 0 once every step happened.
import CoreBluetooth
import Foundation

let usage = """
    usage: cb-apps scan-list NAME [OTHER...]
           cb-apps runner ADVERTISED:SERVICE:MEASUREMENT...
           cb-apps led ADVERTISED SERVICE CHARACTERISTIC TEXT
           cb-apps fleet SERVICE[,SERVICE...] NAME...
    """

let arguments = Array(CommandLine.arguments.dropFirst())
func usageError() -> Never {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}

Task { @MainActor in
    switch (arguments.first, arguments.count) {
    case ("scan-list", 2...):
        await scanList(tapping: arguments[1], others: Array(arguments.dropFirst(2)))
    case ("runner", 2...):
        let sensors = arguments.dropFirst().map { $0.split(separator: ":").map { CBUUID(string: String($0)) } }
        guard sensors.allSatisfy({ $0.count == 3 }) else { usageError() }
        await runner(sensors.map { (advertised: $0[0], service: $0[1], measurement: $0[2]) })
    case ("led", 5):
        await led(advertised: CBUUID(string: arguments[1]), service: CBUUID(string: arguments[2]),
                  characteristic: CBUUID(string: arguments[3]), text: arguments[4])
    case ("fleet", 3...):
        await fleet(services: arguments[1].split(separator: ",").map { CBUUID(string: String($0)) },
                    names: Array(arguments.dropFirst(2)))
    default:
        usageError()
    }
    exit(0)
}
dispatchMain()
