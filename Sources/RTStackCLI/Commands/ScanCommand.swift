import Dissector
import HostCore
import JSON
import Runtime
import Wire

/// `rtstack scan`: advertising devices, one entry each, with name, RSSI, services and
/// manufacturer data; updates printed as they come, a table at the end.
enum ScanCommand {
    static let spec = CommandSpec(
        name: "scan",
        usage: "rtstack scan --adapter ADAPTER [--duration SECONDS] [--passive] [--service UUID]... [--name TEXT] [--device ADDRESS] [--json] [ADAPTER OPTIONS]",
        summary: "List advertising devices (names, RSSI, services, manufacturer data).",
        options: AdapterOptions.specs + [
            .init(.duration, value: "SECONDS", "stop after this long (default: until Ctrl-C)"),
            .init(.passive, "passive scanning (no scan requests, so no scan responses)"),
            .init(.service, value: "UUID", repeatable: true, "only devices advertising this service (180D, EF680100-…)"),
            .init(.name, value: "TEXT", "only devices whose name contains TEXT"),
            // Not --address: that is the adapter option for the own address.
            .init(.device, value: "ADDR", "only this device"),
            .init(.json, "JSON Lines: a \"device\" object when a device appears or changes"),
        ])

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        var filter = ScanFilter()
        for s in args.all(.service) {
            guard let u = BluetoothUUID(string: s) else { throw UsageError("--service \(s): not a UUID (e.g. 180D or EF680100-9B35-4933-9B10-52FFA9740042)") }
            filter.services.append(u)
        }
        filter.name = args.value(.name)
        if let a = args.value(.device) {
            guard let b = BDAddress(string: a.split(separator: "/").first.map(String.init) ?? a) else {
                throw UsageError("--device \(a): not an address like AA:BB:CC:DD:EE:FF")
            }
            filter.address = b
        }
        let duration = try args.double(.duration, in: 0.1...31_536_000)
        let json = args.flag(.json)
        var scan = ScanConfiguration()
        scan.active = !args.flag(.passive)
        return await runCentralCommand(args, console) { cmd in
            var results = ScanResults(filter: filter)
            cmd.endStreams(after: duration)
            for await adv in cmd.central.scan(scan) {
                let report = AdvertisementReport(address: adv.address, rssi: adv.rssi, connectable: adv.connectable,
                                                 scannable: false, isScanResponse: adv.isScanResponse, data: adv.data[...])
                let change = results.add(report, at: MonotonicClock.now())
                guard change == .new || change == .updated, let d = results.devices[adv.address] else { continue }
                console.out.line(json ? deviceJSON(d) : deviceLine(d))
                console.out.flush()
            }
            if !json {
                console.out.line("\n\(results.sorted.count) device(s):")
                for d in results.sorted { console.out.line(deviceLine(d)) }
            }
            return .success
        }
    }

    static func deviceLine(_ d: DiscoveredDevice) -> String {
        var s = d.address.description + "  " + String(d.rssi) + " dBm"
        if let n = d.name { s += "  \"" + n + "\"" }
        if !d.services.isEmpty { s += "  services " + d.services.map(GattCommand.uuidText).joined(separator: ", ") }
        for m in d.manufacturerData {
            s += "  mfr " + CompanyIdentifier(rawValue: m.company).description + " " + Hex.string(m.data)
        }
        if let t = d.txPower { s += "  tx \(t) dBm" }
        if !d.connectable { s += "  (not connectable)" }
        return s
    }

    static func deviceJSON(_ d: DiscoveredDevice) -> String {
        var o = JSONObject()
        o.add("event", "device")
        o.add("address", d.address.description)
        o.add("rssi", Int(d.rssi))
        if let n = d.name { o.add("name", n) }
        o.add("services", strings: d.services.map(\.string))
        if !d.manufacturerData.isEmpty {
            o.add("manufacturer", objects: d.manufacturerData.map { m in
                var x = JSONObject()
                x.add("company", Int(m.company))
                x.add("data", Hex.string(m.data))
                return x
            })
        }
        if let t = d.txPower { o.add("tx_power", Int(t)) }
        o.add("connectable", d.connectable)
        return o.finished
    }
}
