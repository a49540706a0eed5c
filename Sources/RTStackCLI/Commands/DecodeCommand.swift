import Wire
import Capture
import Dissector

/// `rtstack decode FILE…`: every packet of btsnoop / pcap / pcapng captures, decoded.
enum DecodeCommand {
    static let spec = CommandSpec(
        name: "decode",
        usage: "rtstack decode FILE... [--hex] [--json] [--filter TERM]... [--brief] [--summary-only]",
        summary: "Decode btsnoop, pcap and pcapng captures, btmon style.",
        options: [
            .init("hex", "add a hex dump (offset, 16 bytes a line, ASCII) under each packet"),
            .init("json", "JSON Lines: one object per packet, then a summary object per file"),
            .init("filter", value: "TERM", repeatable: true,
                  "keep matching packets: acl|event|command|sco|iso, type=T, handle=N, att=OPCODE|notification|…"),
            .init("brief", "one line per packet, no decoded fields"),
            .init("summary-only", "print only the summary"),
            .init("no-summary", "leave out the summary"),
        ],
        positionals: 1...Int.max,
        details: """
        Each line: index, seconds since the first packet, direction (< host→controller,
        > controller→host), type, connection handle, name, (opcode or code), summary.
        ACL data is reassembled per handle; ATT values are shown decoded where a discovery in
        the same capture tells which characteristic a handle is.
        Exit status: 0 when every file could be read (decode errors are counted in the summary),
        4 when a file could not be read at all, 2 for a bad command line.
        """)

    static func run(_ words: [String], _ console: Console) throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested {
            console.out.write(spec.helpText)
            return .success
        }
        var filter = PacketFilter()
        for term in args.all("filter") {
            do { try filter.add(term: term) } catch { throw UsageError(error.description) }
        }
        let options = Options(
            json: args.flag("json"), hex: args.flag("hex"), brief: args.flag("brief"),
            summaryOnly: args.flag("summary-only"), summary: !args.flag("no-summary"), filter: filter)
        var worst = ExitCode.success
        for path in args.positionals {
            let code = decode(path: path, options: options, out: console.out, err: console.err)
            if code != .success { worst = code }
        }
        return worst
    }

    struct Options {
        var json: Bool
        var hex: Bool
        var brief: Bool
        var summaryOnly: Bool
        var summary: Bool
        var filter: PacketFilter
    }

    /// Decodes one file to `out`; problems reading it go to `err`.
    static func decode(path: String, options: Options, out: OutputStream, err: OutputStream) -> ExitCode {
        var reader: CaptureReader
        do {
            reader = try CaptureFile.open(path: path)
        } catch {
            err.line("rtstack: \(path): \(error)")
            return .input
        }
        let dissector = PacketDissector(collectFields: !options.brief && !options.summaryOnly)
        let text = TextRenderer(hexDump: options.hex, showFields: !options.brief)
        let json = JSONRenderer(includeFields: !options.brief)
        if !options.json && !options.summaryOnly {
            out.line("# \(path): \(reader.format)")
        }
        var readError: CaptureError? = nil
        // One packet, refilled for each record: its buffers are reused.
        var packet = DissectedPacket(index: 0, timestampMicros: 0, relativeTime: 0,
                                     direction: .controllerToHost, type: .event, bytes: [])
        while true {
            // Not an optional kept to the end of the iteration: destroying a `CaptureRecord?`
            // goes through its type's generic witnesses, a hundred instructions per packet.
            let record: CaptureRecord
            do {
                guard let next = try reader.next() else { break }
                record = next
            } catch {
                dissector.noteCaptureError("\(error)")
                if error.endsStream {
                    readError = error
                    break
                }
                if !options.json && !options.summaryOnly { out.line("        ! \(error)") }
                continue
            }
            dissector.dissect(record, into: &packet)
            if options.summaryOnly || !options.filter.accepts(packet) { continue }
            if options.json {
                out.append(text: { line in
                    json.render(packet, into: &line)
                    line.append(byte: 0x0A)
                })
            } else {
                out.append(text: { text.render(packet, into: &$0) })
            }
        }
        if let e = readError {
            err.line("rtstack: \(path): \(e) (the packets before it were decoded)")
        }
        if options.summary || options.summaryOnly {
            if options.json {
                var s = dissector.statistics.json
                s.add("file", path)
                out.line(s.finished)
            } else {
                out.line(dissector.statistics.text)
            }
        }
        out.flush()
        return .success
    }
}
