@testable import CoreBluetooth
import Foundation
import Runtime
import Testing
import Wire

@Suite("CoreBluetooth from many threads")
struct CoreBluetoothThreadingTests {
    @Test("A peripheral's state, name and services are read on many threads while the manager changes them")
    func concurrentAccess() {
        let central = CBCentralManager(delegate: nil, queue: DispatchQueue(label: "t"), options: [CBCentralManagerOptionRTStackAdapterKey: "tcp:127.0.0.1:1"])
        let address = DeviceAddress(BDAddress(string: "C1:00:00:00:00:09")!, type: .randomDevice)
        let p = central.peripheral(for: address)
        let rounds = 20_000
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<rounds {
                switch worker {
                case 0:
                    _ = p.takeAdvertised(AdvertisementSnapshot(advertising: [UInt8(2 + i % 5), 0x09] + Array("abcdef".utf8.prefix(1 + i % 5)),
                                                               scanResponse: nil, connectable: true))
                case 1:
                    if let g = p.beginConnecting() { _ = p.connectFailed(generation: g) }
                default:
                    _ = (p.name?.count ?? 0) + (p.services?.count ?? 0) + p.state.rawValue
                    #expect(central.peripheral(for: address) === p)
                }
            }
        }
        #expect(p.state == .disconnected)
        #expect(p.name.map { "abcdef".hasPrefix($0) } == true, "\(String(describing: p.name))")
    }
}
