import Gateway

/// `rtstack status`: what a running gateway does — its adapters with their connection slots
/// used and free, its devices with their state and adapter — asked over its control socket.
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status",
        usage: "rtstack status [--control-socket PATH] [--json]",
        summary: "Show a running gateway's adapters (connection slots used/free) and devices.",
        options: [
            .init(.controlSocket, value: "PATH", "the gateway's control socket (default: the gateway's default path)"),
            .init(.json, "the gateway's answers as they are: JSON Lines (status, adapters, devices)"),
        ],
        details: """
        Slots: links placed on the adapter, and how many more it takes once its controller's
        limit is known (learned from a refusal, 0x09 Connection Limit Exceeded or 0x07 Memory
        Capacity Exceeded, or from LE Supported States); '?' while it is not.
        Exit status: 0 shown, 3 no gateway answers on the socket.
        """)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        let path = args.value(.controlSocket) ?? ControlServer.defaultPath()
        do {
            let client = try ControlClient(path: path)
            defer { client.close() }
            if args.flag(.json) {
                for op in ["status", "adapters", "devices"] { console.out.line(try client.request("{\"op\":\"\(op)\"}")) }
                return .success
            }
            let status = try client.call(#"{"op":"status"}"#)
            let adapters = try client.call(#"{"op":"adapters"}"#)
            let devices = try client.call(#"{"op":"devices"}"#)
            console.out.line("gateway \(status["gateway"]?.scalarText ?? "?") \(status["version"]?.scalarText ?? ""), up \(status["uptime_s"]?.scalarText ?? "?") s, "
                             + "broker " + (status["mqtt_connected"]?.scalarText == "true" ? "connected" : "away")
                             + ", \(status["mqtt_queued"]?.scalarText ?? "0") message(s) queued")
            console.out.line("")
            for line in adapterLines(adapters["adapters"]) { console.out.line(line) }
            console.out.line("")
            for line in deviceLines(devices["devices"]) { console.out.line(line) }
            return .success
        } catch {
            console.err.line("rtstack: \(error.description)")
            return .adapter
        }
    }

    /// One line per adapter: name, state, backend, slots used and free.
    static func adapterLines(_ node: YAMLNode?) -> [String] {
        var lines = [pad("ADAPTER", 26) + pad("STATE", 9) + pad("BACKEND", 14) + "SLOTS (used/free)  REASON"]
        for a in objects(node) {
            let used = a["slots_used"]?.scalarText ?? "0"
            let free = a["slots_free"]?.scalarText ?? "?"
            lines.append(pad(a["adapter"]?.scalarText ?? "?", 26) + pad(a["state"]?.scalarText ?? "?", 9)
                         + pad(a["backend"]?.scalarText ?? "", 14) + pad(used + "/" + free, 19) + (a["reason"]?.scalarText ?? ""))
        }
        return lines
    }

    static func deviceLines(_ node: YAMLNode?) -> [String] {
        var lines = [pad("DEVICE", 16) + pad("STATE", 18) + pad("ADDRESS", 27) + pad("ADAPTER", 26) + "RSSI"]
        for d in objects(node) {
            lines.append(pad(d["device"]?.scalarText ?? "?", 16) + pad(d["state"]?.scalarText ?? "?", 18)
                         + pad(d["address"]?.scalarText ?? "", 27) + pad(d["adapter"]?.scalarText ?? "", 26)
                         + (d["rssi"]?.scalarText.map { $0 + " dBm" } ?? ""))
        }
        return lines
    }

    static func objects(_ node: YAMLNode?) -> [[String: YAMLNode]] {
        guard case .sequence(let items, _)? = node else { return [] }
        return items.compactMap { item in
            guard case .mapping(let pairs, _) = item else { return nil }
            var o: [String: YAMLNode] = [:]
            for p in pairs { if let k = p.key.scalarText { o[k] = p.value } }
            return o
        }
    }

    static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
    }
}
