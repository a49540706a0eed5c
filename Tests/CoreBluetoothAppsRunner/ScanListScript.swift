import CoreBluetooth
import CoreBluetoothApps
import Foundation

/// App shape (a): the list fills (with NAME and the OTHERS), the user looks at it a moment, taps
/// NAME; the app connects and reads every readable characteristic; the user closes the connection.
@MainActor
func scanList(tapping name: String, others: [String]) async {
    let app = ScanListApp(options: [:])
    await Script.wait(20, for: "the scan to start") { app.central.isScanning }
    Script.say("scanning")
    await Script.wait(30, for: "rows named \(([name] + others).joined(separator: ", "))") {
        ([name] + others).allSatisfy { app.row(named: $0) != nil }
    }
    await Script.pause(1)   // the user looks at the list a moment (a device reported twice shows now)
    for row in app.rows.values.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
        Script.say("row \(row.name ?? "?") rssi=\(row.rssi) discoveries=\(row.discoveries)")
    }
    guard let peripheral = app.row(named: name)?.peripheral else { return }
    app.tap(name)
    await Script.wait(30, for: "\(name) connected and every readable characteristic read") {
        app.connected && app.pendingReads == 0 && !app.values.isEmpty
    }
    for (uuid, value) in app.values.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
        Script.say("value \(uuid.uuidString) \(Script.hex(value))")
    }
    let retrieved = app.central.retrievePeripherals(withIdentifiers: [peripheral.identifier]).first === peripheral
    let connected = app.central.retrieveConnectedPeripherals(withServices: peripheral.services?.map(\.uuid) ?? []).first === peripheral
    Script.say("connected state=\(peripheral.state) scanning=\(app.central.isScanning) retrieved=\(retrieved) retrieved-connected=\(connected)")
    app.central.cancelPeripheralConnection(peripheral)
    await Script.wait(10, for: "the disconnection") { app.disconnected }
    Script.say("disconnected state=\(peripheral.state) services=\(peripheral.services == nil ? "nil" : "kept")")
}
