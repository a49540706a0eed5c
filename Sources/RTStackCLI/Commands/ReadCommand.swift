import Dissector
import HostCore
import JSON
import Runtime
import Wire

/// `rtstack read ADDRESS UUID|HANDLE[,UUID|HANDLE…]`: one characteristic value (long values
/// read whole), or several with one Read Multiple Variable Length request (or, `--fixed`, Read
/// Multiple, whose values come back run together).
enum ReadCommand {
    static let spec = CommandSpec(
        name: "read",
        usage: "rtstack read ADDRESS UUID|HANDLE[,UUID|HANDLE...] --adapter ADAPTER [--fixed | --variable] [--no-fallback] [--json] [ADAPTER OPTIONS]",
        summary: "Read a characteristic by UUID or handle, or several at once (Read Multiple); decoded where rtstack knows it.",
        options: AdapterOptions.specs + [
            .init(.fixed, "several handles: ATT Read Multiple Request; the values come back run together as one"),
            .init(.variable, "several handles: send Read Multiple Variable Length even to a peer that does not claim EATT (it may not answer for 30 s)"),
            .init(.noFallback, "several handles: fail if the peer does not support Read Multiple Variable Length, rather than read them one by one"),
            .init(.json, "one JSON object"),
        ],
        positionals: 2...2,
        details: """
            Several handles (comma-separated, e.g. 0x0003,0x0016,2A19) are read with one ATT Read
            Multiple Variable Length Request, each value with its own length. A server need
            support it only if it supports EATT, so rtstack first reads Server Supported Features
            (0x2B3A) and sends the request only when the EATT bit is set; otherwise, or when the
            server answers Request Not Supported, it reads the handles one by one (with
            --no-fallback it fails instead). --variable sends the request without asking: some
            servers support it without EATT, but one that does not may leave it unanswered until
            the 30 s ATT timeout ends the link's ATT bearer. --fixed sends the older Read Multiple
            Request, whose answer runs the values together.
            """)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        let targets = try TargetSpec.list(args.positionals[1])
        if targets.count == 1, args.flag(.fixed) || args.flag(.noFallback) || args.flag(.variable) {
            throw UsageError("--fixed, --variable and --no-fallback are for reading several handles at once (HANDLE,HANDLE,…)")
        }
        if args.flag(.fixed), args.flag(.noFallback) || args.flag(.variable) {
            throw UsageError("--variable and --no-fallback are about Read Multiple Variable Length; --fixed does not use it")
        }
        let addressText = args.positionals[0]
        try CentralCommand.check(address: addressText)
        return await runCentralCommand(args, console) { cmd in
            let p = try await cmd.connect(try await cmd.resolve(addressText))
            let found = try await TargetSpec.valueHandles(targets, on: p)
            let handles = found.map(\.0)
            if targets.count == 1 {
                let value = try await p.read(handle: handles[0])
                show([(handles[0], found[0].1, value)], args: args, console: console)
            } else if args.flag(.fixed) {
                let joined = try await p.readMultiple(handles: handles)
                if args.flag(.json) {
                    var o = JSONObject()
                    o.add("handles", ints: handles.map(Int.init))
                    o.add("value", Hex.string(joined))
                    console.out.line(o.finished)
                } else {
                    console.out.line(handles.map { Hex.number($0, width: 4) }.joined(separator: ",") + ": " + Hex.spaced(joined))
                }
            } else {
                let values = try await p.readMultipleVariable(handles: handles, when: args.flag(.variable) ? .always : .ifServerSupportsEATT,
                                                              fallback: !args.flag(.noFallback))
                show(values.indices.map { (values[$0].handle, found[$0].1, values[$0].value) }, args: args, console: console)
            }
            await p.disconnect()
            return .success
        }
    }

    private static func show(_ values: [(UInt16, GATTCharacteristic?, [UInt8])], args: ParsedArguments, console: Console) {
        if args.flag(.json) {
            func object(_ v: (UInt16, GATTCharacteristic?, [UInt8])) -> JSONObject {
                var o = JSONObject()
                o.add("handle", Int(v.0))
                if let c = v.1 { o.add("uuid", c.uuid.string) }
                o.add("value", Hex.string(v.2))
                return o
            }
            if values.count == 1 {
                console.out.line(object(values[0]).finished)
            } else {
                var o = JSONObject()
                o.add("values", objects: values.map(object))
                console.out.line(o.finished)
            }
            return
        }
        for (handle, characteristic, value) in values {
            console.out.line("\(Hex.number(handle, width: 4)): " + (characteristic.map { GattCommand.valueText($0.uuid, value) } ?? Hex.spaced(value)))
        }
    }
}
