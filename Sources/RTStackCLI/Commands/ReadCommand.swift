import HostCore
import Runtime
import Wire
import Dissector

/// `rtstack read ADDRESS UUID|HANDLE`: one characteristic value (long values read whole).
enum ReadCommand {
    static let spec = CommandSpec(
        name: "read",
        usage: "rtstack read ADDRESS UUID|HANDLE --adapter ADAPTER [--json]",
        summary: "Read a characteristic by UUID or handle; decoded where rtstack knows it.",
        options: AdapterOptions.specs + [.init("json", "one JSON object")],
        positionals: 2...2)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        let target = try TargetSpec(args.positionals[1])
        let addressText = args.positionals[0]
        return await runCentralCommand(args, console) { cmd in
            let p = try await cmd.connect(try await cmd.resolve(addressText))
            let (handle, characteristic) = try await target.valueHandle(on: p)
            let value = try await p.read(handle: handle)
            if args.flag("json") {
                var o = JSONObject()
                o.add("handle", Int(handle))
                if let c = characteristic { o.add("uuid", c.uuid.string) }
                o.add("value", Hex.string(value))
                console.out.line(o.finished)
            } else {
                let uuid = characteristic?.uuid
                console.out.line("\(Hex.number(handle, width: 4)): " + (uuid.map { GattCommand.valueText($0, value) } ?? Hex.spaced(value)))
            }
            await p.disconnect()
            return .success
        }
    }
}
