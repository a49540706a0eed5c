import HostCore
import Runtime
import Sensors
import Wire
import Dissector

/// `rtstack gatt ADDRESS`: the peer's whole attribute database with handles, properties and
/// the values of readable characteristics.
enum GattCommand {
    static let spec = CommandSpec(
        name: "gatt",
        usage: "rtstack gatt ADDRESS --adapter ADAPTER [--no-values] [--json]",
        summary: "Show a peer's services, characteristics and descriptors with handles, properties and values.",
        options: AdapterOptions.specs + [
            .init("no-values", "do not read the readable characteristics"),
            .init("json", "one JSON object with the whole tree"),
        ],
        positionals: 1...1)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        let target = args.positionals[0]
        return await runCentralCommand(args, console) { cmd in
            let address = try await cmd.resolve(target)
            let p = try await cmd.connect(address)
            let db = try await p.discover()
            var values: [UInt16: Result<[UInt8], any Error>] = [:]
            if !args.flag("no-values") {
                for s in db.services { for c in s.characteristics where c.canRead {
                    do { values[c.valueHandle] = .success(try await p.read(handle: c.valueHandle)) } catch { values[c.valueHandle] = .failure(error) }
                } }
            }
            if args.flag("json") {
                console.out.line(treeJSON(db, values))
            } else {
                console.out.write(treeText(db, values, peer: address))
            }
            await p.disconnect()
            return .success
        }
    }

    static func uuidText(_ u: BluetoothUUID) -> String {
        u.name.map { "\($0) (\(u.string))" } ?? u.string
    }

    static func valueText(_ uuid: BluetoothUUID, _ v: [UInt8]) -> String {
        var s = Hex.spaced(v)
        if let d = SensorValueDecoder.decode(uuid: uuid, value: v[...]), !d.isMalformed {
            s += "  = " + d.summary
        } else if !v.isEmpty, v.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            s += "  = \"" + String(decoding: v, as: UTF8.self) + "\""
        }
        return s
    }

    static func treeText(_ db: GATTDatabase, _ values: [UInt16: Result<[UInt8], any Error>], peer: DeviceAddress) -> String {
        var s = "\(peer)\n"
        for svc in db.services {
            s += "service \(Hex.number(svc.startHandle, width: 4))-\(Hex.number(svc.endHandle, width: 4)) \(svc.isPrimary ? "primary" : "secondary") \(uuidText(svc.uuid))\n"
            for inc in svc.includedServices {
                s += "  include \(Hex.number(inc.declarationHandle, width: 4)) → \(Hex.number(inc.startHandle, width: 4))-\(Hex.number(inc.endHandle, width: 4))\n"
            }
            for c in svc.characteristics {
                let props = CharacteristicProperties(rawValue: c.properties).description
                s += "  characteristic \(Hex.number(c.valueHandle, width: 4)) \(uuidText(c.uuid)) [\(props)]\n"
                switch values[c.valueHandle] {
                case .success(let v)?: s += "    value: \(valueText(c.uuid, v))\n"
                case .failure(let e)?: s += "    value: (\(e))\n"
                case nil: break
                }
                for d in c.descriptors {
                    s += "    descriptor \(Hex.number(d.handle, width: 4)) \(uuidText(d.uuid))\n"
                }
            }
        }
        if let h = db.databaseHash { s += "database hash: \(Hex.string(h))\n" }
        return s
    }

    static func treeJSON(_ db: GATTDatabase, _ values: [UInt16: Result<[UInt8], any Error>]) -> String {
        var o = JSONObject()
        o.add("services", objects: db.services.map { svc in
            var so = JSONObject()
            so.add("uuid", svc.uuid.string)
            if let n = svc.uuid.name { so.add("name", n) }
            so.add("start", Int(svc.startHandle))
            so.add("end", Int(svc.endHandle))
            so.add("primary", svc.isPrimary)
            so.add("characteristics", objects: svc.characteristics.map { c in
                var co = JSONObject()
                co.add("uuid", c.uuid.string)
                if let n = c.uuid.name { co.add("name", n) }
                co.add("handle", Int(c.valueHandle))
                co.add("properties", Int(c.properties))
                if case .success(let v)? = values[c.valueHandle] { co.add("value", Hex.string(v)) }
                if case .failure(let e)? = values[c.valueHandle] { co.add("error", "\(e)") }
                co.add("descriptors", objects: c.descriptors.map { d in
                    var dd = JSONObject()
                    dd.add("uuid", d.uuid.string)
                    dd.add("handle", Int(d.handle))
                    return dd
                })
                return co
            })
            return so
        })
        return o.finished
    }
}
