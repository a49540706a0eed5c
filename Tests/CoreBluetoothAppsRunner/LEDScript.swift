import CoreBluetooth
import CoreBluetoothApps
import Foundation

/// App shape (c): found by its advertised service, the board's characteristic is read; the user
/// writes TEXT and the app reads it back; then the board ends the link (the caller makes it) and
/// the app scans again, finds it and reads once more.
@MainActor
func led(advertised: CBUUID, service: CBUUID, characteristic: CBUUID, text: String) async {
    let app = LEDApp(service: service, characteristic: characteristic, advertised: advertised, options: [:])
    await Script.wait(20, for: "the scan to start") { app.central.isScanning }
    Script.say("scanning")
    await Script.wait(30, for: "the first read") { app.reads.count == 1 }
    Script.say("read \(Script.hex(app.reads[0]))")
    app.write(text)
    await Script.wait(10, for: "the write") { app.writes.count == 1 }
    Script.say("write error=\(Script.describe(app.writes[0]))")
    await Script.wait(10, for: "the read after the write") { app.reads.count == 2 }
    Script.say("read \(Script.hex(app.reads[1]))")
    Script.say("waiting for the board to end the link")
    await Script.wait(30, for: "the board ending the link") { app.disconnections.count == 1 }
    Script.say("disconnected error=\(Script.describe(app.disconnections[0])) scanning=\(app.central.isScanning)")
    await Script.wait(30, for: "the board found again and read") { app.connections == 2 && app.reads.count == 3 }
    Script.say("read \(Script.hex(app.reads[2]))")
    if let board = app.board { app.central.cancelPeripheralConnection(board) }
    await Script.wait(10, for: "the last disconnection") { app.disconnections.count == 2 }
    Script.say("disconnected error=\(Script.describe(app.disconnections[1]))")
}
