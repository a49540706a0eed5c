import Dissector
import HostCore
import JSON
import Runtime
import Sensors
import Wire

/// `rtstack subscribe ADDRESS UUID…`: notifications and indications as they arrive, decoded
/// where a sensor decoder exists, hex otherwise.
enum SubscribeCommand {
    static let spec = CommandSpec(
        name: "subscribe",
        usage: "rtstack subscribe ADDRESS UUID... --adapter ADAPTER [--duration SECONDS] [--indicate] [--json] [ADAPTER OPTIONS]",
        summary: "Subscribe to characteristics and print their values until Ctrl-C or --duration.",
        options: AdapterOptions.specs + [
            .init(.duration, value: "SECONDS", "stop after this long"),
            .init(.indicate, "ask for indications instead of notifications"),
            .init(.json, "JSON Lines: one object per value"),
        ],
        positionals: 2...64)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        var uuids: [BluetoothUUID] = []
        for t in args.positionals.dropFirst() {
            guard let u = BluetoothUUID(string: t) else { throw UsageError("'\(t)' is not a UUID (e.g. 2A37)") }
            uuids.append(u)
        }
        let duration = try args.double(.duration, in: 0.1...31_536_000)
        let addressText = args.positionals[0]
        try CentralCommand.check(address: addressText)
        let mode: SubscriptionMode = args.flag(.indicate) ? .indicate : .automatic
        let json = args.flag(.json)
        return await runCentralCommand(args, console) { cmd in
            let p = try await cmd.connect(try await cmd.resolve(addressText))
            let db = try await p.discover()
            var streams: [(GATTCharacteristic, AsyncStream<[UInt8]>)] = []
            for u in uuids {
                let peer = p.connection?.peer.description ?? addressText
                guard let c = db.characteristic(u) else { throw CharacteristicAdvice.missing(u, in: db, peer: peer) }
                if let refused = CharacteristicAdvice.notSubscribable(c, indicate: mode == .indicate, in: db, peer: peer) { throw refused }
                streams.append((c, try await p.subscribe(valueHandle: c.valueHandle, mode: mode)))
            }
            // The link's end, for a subscription that ends without --duration or Ctrl-C.
            let events = p.events()
            let lost = Task { () -> HCIStatus? in
                for await e in events { if case .disconnected(let reason) = e { return reason } }
                return nil
            }
            defer { lost.cancel() }
            cmd.endStreams(after: duration)
            let start = MonotonicClock.now()
            await withTaskGroup(of: Void.self) { group in
                for (c, stream) in streams {
                    group.addTask {
                        for await v in stream {
                            let t = Double(MonotonicClock.now() - start) / 1e9
                            console.out.line(line(c, v, t, json: json))
                            console.out.flush()
                        }
                    }
                }
            }
            if await !p.isConnected(), let reason = await lost.value {
                throw CentralError.host(.disconnected(reason))
            }
            await p.disconnect()
            return .success
        }
    }

    static func line(_ c: GATTCharacteristic, _ v: [UInt8], _ t: Double, json: Bool) -> String {
        if json {
            var o = JSONObject()
            o.add("time", (t * 1000).rounded() / 1000)
            o.add("uuid", c.uuid.string)
            o.add("handle", Int(c.valueHandle))
            o.add("value", Hex.string(v))
            if let d = SensorValueDecoder.decode(uuid: c.uuid, value: v[...]) { o.add("decoded", d.summary) }
            return o.finished
        }
        return GattCommand.uuidText(c.uuid) + ": " + GattCommand.valueText(c.uuid, v)
    }
}
