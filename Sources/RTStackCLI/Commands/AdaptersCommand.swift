import Dissector
import JSON
import Runtime

/// `rtstack adapters`: the kernel's Bluetooth adapters (index, address, up/down, bus, and
/// whether a user channel holds one), so a user knows what to pass to `--adapter hciN`.
///
/// On a kernel without Bluetooth it says so on stderr and exits 3 ("adapter unavailable"),
/// like `--adapter hciN` does there, so a script can tell that from "no adapters" (exit 0).
enum AdaptersCommand {
    static let spec = CommandSpec(
        name: "adapters",
        usage: "rtstack adapters [--json] [--control-socket PATH]",
        summary: "List the kernel's Bluetooth adapters (for --adapter hciN): address, up/down, user channel; and a running gateway's, with their connection slots.",
        options: [
            .init(.json, "JSON Lines: one object per adapter"),
            .init(.controlSocket, value: "PATH", "also list the adapters of the gateway on this control socket (default: its default path, when a gateway listens there)"),
        ],
        details: """
        'user channel' says whether another program (rtstack, Bumble …) holds the adapter
        exclusively; such an adapter cannot be opened until that program exits. A running
        `rtstack gateway` holds its adapters so: its own list follows, with the connection slots
        each adapter has used and has free (`rtstack status` shows its devices too).
        Exit status: 0 listed (also when there are none), 3 this kernel has no Bluetooth support
        and no gateway answered.
        """)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        let json = args.flag(.json)
        let gateway = gatewayAdapters(path: args.value(.controlSocket), json: json, console: console)
        let adapters: [HCIAdapterInfo]
        do {
            adapters = try HCIAdapters.list()
        } catch {
            if gateway { return .success }
            console.err.line("rtstack: \(AdapterAdvice.text(for: error))")
            return .adapter
        }
        if adapters.isEmpty {
            if !json {
                console.out.line("no Bluetooth adapters registered (/sys/class/bluetooth is empty): is the controller plugged in and its driver loaded?")
            }
            return .success
        }
        if json {
            for a in adapters { console.out.line(jsonLine(a)) }
        } else {
            console.out.line(pad("ADAPTER", 8) + pad("ADDRESS", 19) + pad("STATE", 6) + pad("BUS", 9) + "USER CHANNEL")
            for a in adapters { console.out.line(textLine(a)) }
        }
        return .success
    }

    /// A running gateway's adapters with their slots, when one answers; whether one did. A path
    /// given that nobody answers on is said; the default path is only tried.
    static func gatewayAdapters(path given: String?, json: Bool, console: Console) -> Bool {
        let path = given ?? ControlServer.defaultPath()
        do {
            let client = try ControlClient(path: path, timeout: 2)
            defer { client.close() }
            if json {
                console.out.line(try client.request(#"{"op":"adapters"}"#))
            } else {
                let answer = try client.call(#"{"op":"adapters"}"#)
                console.out.line("gateway on \(path):")
                for line in StatusCommand.adapterLines(answer["adapters"]) { console.out.line("  " + line) }
                console.out.line("")
            }
            return true
        } catch {
            if given != nil { console.err.line("rtstack: \(error.description)") }
            return false
        }
    }

    static func userChannelText(_ a: HCIAdapterInfo) -> String {
        switch a.heldByUserChannel {
        case true?: return "held (another program owns it)"
        case false?: return "free"
        case nil: return "unknown"
        }
    }

    static func textLine(_ a: HCIAdapterInfo) -> String {
        pad(a.name, 8) + pad(a.address.string, 19) + pad(a.isUp ? "up" : "down", 6) + pad(a.busName, 9) + userChannelText(a)
    }

    static func jsonLine(_ a: HCIAdapterInfo) -> String {
        var o = JSONObject()
        o.add("index", Int(a.index))
        o.add("name", a.name)
        o.add("address", a.address.string)
        o.add("up", a.isUp)
        o.add("bus", a.busName)
        if let held = a.heldByUserChannel { o.add("user_channel", held) }
        return o.finished
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}
