import HostCore
import SecurityCrypto
import Wire

/// What resolving private addresses in software costs the scan path (Docs/security.md,
/// "Privacy"): advertising reports through `HCIHost` with `bonds` IRKs in the bond table, one
/// report per LE Advertising Report event, for three kinds of advertiser — public addresses
/// (nothing to resolve), one stranger's RPA repeated (resolved once, then cached), and a new
/// stranger's RPA in every report (every bond's IRK tried: `bonds` AES-128 operations through
/// Nettle). The first line, without bonds, is the baseline.
func runPrivacyBench(reports: Int, bonds: Int) {
    var crypto = NettleCryptography()
    let records = (0..<bonds).map { i in
        BondRecord(pairing: PairingResult(
            peerAddress: DeviceAddress(BDAddress(value: 0x0000_1B00_0000 | UInt64(i)), type: .publicDevice),
            longTermKey: LinkEncryptionKey(key: crypto.random128()), identityResolvingKey: crypto.random128(),
            model: .justWorks, secureConnections: true, keySize: 16, bonded: true))
    }
    func rpa(_ i: Int) -> BDAddress {
        BDAddress(value: 0x4000_0000_0000 | UInt64(i & 0x3F_FFFF) << 24 | 0x12_3456)
    }
    let kinds: [(String, Int, (Int) -> LEAdvertisingReport)] = [
        ("public addresses, no bonds", 0, { i in report(BDAddress(value: 0x0000_2200_0000 | UInt64(i & 0xFFFF)), .publicDevice) }),
        ("public addresses, \(bonds) bonds", bonds, { i in report(BDAddress(value: 0x0000_2200_0000 | UInt64(i & 0xFFFF)), .publicDevice) }),
        ("one stranger's RPA repeated, \(bonds) bonds", bonds, { _ in report(rpa(7), .randomDevice) }),
        ("a new stranger's RPA in every report, \(bonds) bonds", bonds, { i in report(rpa(i), .randomDevice) }),
    ]
    for (name, bondCount, make) in kinds {
        var configuration = HostConfiguration(ownAddress: .randomStatic(BDAddress(string: "C4:11:22:33:44:55") ?? .zero))
        configuration.security.crypto = NettleCryptography()
        configuration.security.bonds = Array(records.prefix(bondCount))
        let host = HCIHost(configuration: configuration)
        let controller = ScriptedController()
        func settle() {
            for _ in 0..<10_000 {
                while let p = host.pollTransmit(at: 1) { controller.handle(p) }
                while host.pollEvent() != nil {}
                guard !controller.outbox.isEmpty else { return }
                let bytes = controller.outbox
                controller.outbox.removeAll()
                feed(bytes)
            }
        }
        var framer = H4Framer(configuration: .controllerToHost)
        var delivered = 0
        func feed(_ bytes: [UInt8]) {
            framer.feed(bytes)
            while framer.withNext({ output in
                if case .packet(let p) = output { host.receive(p, at: 1) }
                return true
            }) != nil {}
        }
        host.start(at: 0)
        settle()
        host.startScan(ScanConfiguration(), at: 1)
        settle()
        var stream: [UInt8] = []
        for i in 0..<reports {
            stream += HCIEvent.le(.advertisingReport(LEAdvertisingReportEvent(reports: [make(i)]))).h4Bytes
        }
        let start = Clock.threadCPU()
        var offset = 0
        while offset < stream.count {
            let end = min(offset + 64 * 1024, stream.count)
            feed(Array(stream[offset..<end]))
            while let e = host.pollEvent() { if case .advertisement = e { delivered += 1 } }
            offset = end
        }
        let ns = Double(Clock.threadCPU() - start) / Double(max(reports, 1))
        print("privacy: \(name): \(Int(ns.rounded())) ns per report on-CPU (\(delivered) of \(reports) delivered)")
    }
}

private func report(_ address: BDAddress, _ type: LEAddressType) -> LEAdvertisingReport {
    LEAdvertisingReport(eventType: .advInd, addressType: type, address: address, data: [0x02, 0x01, 0x06], rssi: -60)
}
