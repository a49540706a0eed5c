import CoreBluetooth
import CoreBluetoothApps
import Foundation

/// App shape (d): one central, one object per device. The user connects the devices NAME… in
/// that order, looks at them all connected for three seconds (the caller checks the peers then),
/// disconnects them one by one, and three seconds later connects the first again: the same object.
@MainActor
func fleet(services: [CBUUID], names: [String]) async {
    let app = FleetApp(services: services, options: [:])
    await Script.wait(20, for: "the scan to start") { app.central.isScanning }
    Script.say("scanning")
    func named(_ name: String) -> FleetApp.Device? { app.devices.first { $0.peripheral.name == name } }
    await Script.wait(30, for: "every device listed") { names.allSatisfy { named($0) != nil } }
    let devices = names.compactMap(named)
    Script.say("listed \(app.devices.count)")
    for (name, d) in zip(names, devices) {
        app.toggle(d)
        await Script.wait(30, for: "\(name) connected") { d.isConnected }
        Script.say("connected \(name) connections=\(d.connections)")
    }
    Script.say("all connected")
    await Script.pause(3)
    for (n, (name, d)) in zip(names, devices).enumerated() {
        app.toggle(d)
        await Script.wait(15, for: "\(name) disconnected") { !d.isConnected }
        let others = devices.dropFirst(n + 1).allSatisfy { $0.peripheral.state == .connected }
        Script.say("disconnected \(name) error=\(Script.describe(d.lastDisconnectError)) later-ones-connected=\(others)")
    }
    await Script.pause(3)   // the user looks at the list (and the VM's peer, one process a link, comes back)
    app.toggle(devices[0])
    await Script.wait(30, for: "\(names[0]) connected again") { devices[0].isConnected && devices[0].connections == 2 }
    Script.say("reconnected \(names[0]) connections=\(devices[0].connections) same-object=\(named(names[0]) === devices[0]) listed=\(app.devices.count)")
    app.toggle(devices[0])
    await Script.wait(15, for: "\(names[0]) disconnected again") { !devices[0].isConnected }
    Script.say("disconnected \(names[0]) error=\(Script.describe(devices[0].lastDisconnectError))")
}
