import CoreBluetooth
import CoreBluetoothApps
import Foundation

/// App shape (b): the runner's sensors found by advertised service, connected as found, their
/// measurements shown live; once each has shown three values the runner taps End Session.
@MainActor
func runner(_ sensors: [(advertised: CBUUID, service: CBUUID, measurement: CBUUID)]) async {
    let app = RunnerApp(sensors: Dictionary(uniqueKeysWithValues: sensors.map { ($0.advertised, (service: $0.service, measurements: [$0.measurement])) }),
                        options: [:])
    await Script.wait(20, for: "the scan to start") { app.central.isScanning }
    Script.say("scanning")
    var announced: Set<UUID> = []
    await Script.wait(60, for: "three values of each measurement") {
        for p in app.connectedFor.values where p.state == .connected && !announced.contains(p.identifier) {
            announced.insert(p.identifier)
            Script.say("connected \(p.name ?? "?")")
        }
        return sensors.allSatisfy { (app.shown[$0.measurement]?.count ?? 0) >= 3 }
    }
    Script.say("notifying \(app.notifying.map(\.uuidString).sorted().joined(separator: ","))")
    for s in sensors {
        for value in app.shown[s.measurement] ?? [] { Script.say("value \(s.measurement.uuidString) \(Script.hex(value))") }
    }
    app.endSession()
    await Script.wait(15, for: "every sensor disconnected") { app.ended.count == sensors.count }
    for (p, error) in app.ended { Script.say("ended \(p.name ?? "?") error=\(Script.describe(error)) state=\(p.state)") }
}
