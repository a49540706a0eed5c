import Dissector
import HostCore
import JSON
import Runtime
import Sensors
import Wire

/// `rtstack gatt ADDRESS`: the peer's whole attribute database with handles, properties and
/// the values of readable characteristics.
enum GattCommand {
    static let spec = CommandSpec(
        name: "gatt",
        usage: "rtstack gatt ADDRESS --adapter ADAPTER [--service UUID | --range START-END] [--characteristic UUID] [--only included|characteristics|descriptors] [--no-values] [--json] [ADAPTER OPTIONS]",
        summary: "Show a peer's services, characteristics and descriptors with handles, properties and values.",
        options: AdapterOptions.specs + [
            .init(.service, value: "UUID", "only the primary services of this UUID (Discover Primary Service by Service UUID)"),
            .init(.range, value: "START-END", "only this handle range, e.g. 0x0010-0x0020 (no service discovery)"),
            .init(.characteristic, value: "UUID", "only the characteristics of this UUID (Discover Characteristics by UUID)"),
            .init(.only, value: "WHAT", "run one sub-procedure over the range or service: included, characteristics, or descriptors (every attribute with its type)"),
            .init(.noValues, "do not read the readable characteristics"),
            .init(.json, "one JSON object with the whole tree"),
        ],
        positionals: 1...1,
        details: """
            Without --service, --range, --characteristic or --only the whole database is discovered.
            With them, each GATT sub-procedure runs over the handle range of each matching service
            (--service) or over the range given (--range; the whole database when neither is given):
            Find Included Services, Discover All Characteristics (or by UUID with --characteristic)
            and, per characteristic, Discover All Characteristic Descriptors.
            """)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        let target = args.positionals[0]
        try CentralCommand.check(address: target)
        let selection = try GattSelection(args)
        return await runCentralCommand(args, console) { cmd in
            let address = try await cmd.resolve(target)
            let p = try await cmd.connect(address)
            let json: String, text: String
            if selection.isEverything {
                let db = try await p.discover()
                let values = args.flag(.noValues) ? [:] : await readValues(db.services.flatMap(\.characteristics), p)
                (json, text) = (treeJSON(db, values), treeText(db, values, peer: address))
            } else {
                let sections = try await selection.explore(p)
                let values = args.flag(.noValues) ? [:] : await readValues(sections.flatMap { $0.characteristics ?? [] }, p)
                (json, text) = (sectionsJSON(sections, values), sectionsText(sections, values, peer: address))
            }
            if args.flag(.json) {
                console.out.line(json)
            } else {
                console.out.write(text)
            }
            await p.disconnect()
            return .success
        }
    }

    /// The values of the readable characteristics, or why each could not be read.
    static func readValues(_ characteristics: [GATTCharacteristic], _ p: Peripheral) async -> [UInt16: Result<[UInt8], any Error>] {
        var values: [UInt16: Result<[UInt8], any Error>] = [:]
        for c in characteristics where c.canRead {
            do { values[c.valueHandle] = .success(try await p.read(handle: c.valueHandle)) } catch { values[c.valueHandle] = .failure(error) }
        }
        return values
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
            s += serviceLine(svc)
            s += includesText(svc.includedServices)
            s += characteristicsText(svc.characteristics, values)
        }
        if let h = db.databaseHash { s += "database hash: \(Hex.string(h))\n" }
        return s
    }

    static func serviceLine(_ svc: GATTService) -> String {
        "service \(Hex.number(svc.startHandle, width: 4))-\(Hex.number(svc.endHandle, width: 4)) \(svc.isPrimary ? "primary" : "secondary") \(uuidText(svc.uuid))\n"
    }

    static func includesText(_ includes: [GATTIncludedService]) -> String {
        includes.map { inc in
            "  include \(Hex.number(inc.declarationHandle, width: 4)) → \(Hex.number(inc.startHandle, width: 4))-\(Hex.number(inc.endHandle, width: 4))"
                + (inc.uuid.map { " " + uuidText($0) } ?? "") + "\n"
        }.joined()
    }

    static func characteristicsText(_ characteristics: [GATTCharacteristic], _ values: [UInt16: Result<[UInt8], any Error>]) -> String {
        var s = ""
        for c in characteristics {
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
        return s
    }

    static func treeJSON(_ db: GATTDatabase, _ values: [UInt16: Result<[UInt8], any Error>]) -> String {
        var o = JSONObject()
        o.add("services", objects: db.services.map { svc in
            var so = serviceJSON(svc)
            so.add("characteristics", objects: characteristicsJSON(svc.characteristics, values))
            return so
        })
        return o.finished
    }

    static func serviceJSON(_ svc: GATTService) -> JSONObject {
        var so = JSONObject()
        so.add("uuid", svc.uuid.string)
        if let n = svc.uuid.name { so.add("name", n) }
        so.add("start", Int(svc.startHandle))
        so.add("end", Int(svc.endHandle))
        so.add("primary", svc.isPrimary)
        return so
    }

    static func characteristicsJSON(_ characteristics: [GATTCharacteristic], _ values: [UInt16: Result<[UInt8], any Error>]) -> [JSONObject] {
        characteristics.map { c in
            var co = JSONObject()
            co.add("uuid", c.uuid.string)
            if let n = c.uuid.name { co.add("name", n) }
            co.add("handle", Int(c.valueHandle))
            co.add("properties", Int(c.properties))
            if case .success(let v)? = values[c.valueHandle] { co.add("value", Hex.string(v)) }
            if case .failure(let e)? = values[c.valueHandle] { co.add("error", "\(e)") }
            co.add("descriptors", objects: c.descriptors.map(attributeJSON))
            return co
        }
    }

    static func attributeJSON(_ d: GATTDescriptor) -> JSONObject {
        var dd = JSONObject()
        dd.add("uuid", d.uuid.string)
        dd.add("handle", Int(d.handle))
        return dd
    }
}
