import Wire
import Capture
import Dissector

/// `rtstack decode FILE…`: every packet of btsnoop / pcap / pcapng captures, decoded.
enum DecodeCommand {
    static let spec = CommandSpec(
        name: "decode",
        usage: "rtstack decode FILE... [--hex] [--json] [--filter TERM]... [--brief] [--summary-only | --no-summary] [--gatt-cache DIR | --no-gatt-cache] [--show-keys] [--adv-summary]",
        summary: "Decode btsnoop, pcap and pcapng captures, btmon style.",
        options: DissectionSetup.specOptions + [
            .init(.summaryOnly, "print only the summary"),
        ],
        positionals: 1...Int.max,
        details: """
        Each line: index, seconds since the first packet, direction (< host→controller,
        > controller→host), type, connection handle, name, (opcode or code), summary.
        ACL data is reassembled per handle, and per channel on credit-based L2CAP channels;
        ATT on EATT channels is decoded like ATT on CID 4. On BR/EDR links the signaling
        on CID 0x0001 is decoded and each channel followed with its PSM: ATT on PSM 0x001F
        is decoded as on LE, other channels (SDP, RFCOMM, AVDTP, AVCTP…) named with their bytes. ATT values are shown decoded where
        a discovery in the same capture, or else the GATT cache, tells which characteristic a
        handle is. Linux monitor captures (btsnoop 2001, pcap 254) also show adapters, system
        notes and management traffic (= and @ lines) and name the adapter of every packet.
        Exit status: 0 when every file could be read (decode errors are counted in the summary),
        4 when a file could not be read at all, 2 for a bad command line.
        """)

    static func run(_ words: [String], _ console: Console) throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested {
            console.out.write(spec.helpText)
            return .success
        }
        let setup = try DissectionSetup(args)
        for notice in setup.notices { console.err.line("rtstack: \(notice)") }
        let options = Options(
            json: args.flag(.json), hex: args.flag(.hex), brief: args.flag(.brief),
            summaryOnly: args.flag(.summaryOnly), summary: !args.flag(.noSummary), setup: setup)
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
        var setup: DissectionSetup

        var filter: PacketFilter { setup.filter }
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
        var dissectorOptions = options.setup.options
        let monitorCapture = reader.format.isLinuxMonitor
        dissectorOptions.showsAdapter = monitorCapture
        if monitorCapture { reader.noteLimit = 1 << 16 }
        let dissector = PacketDissector(collectFields: !options.brief && !options.summaryOnly, options: dissectorOptions)
        let show = Presenter(json: options.json, hex: options.hex, brief: options.brief,
                             summaryOnly: options.summaryOnly, filter: options.filter,
                             advertisingSummary: options.setup.advertisingSummary, out: out)
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
                if monitorCapture { showNotes(&reader, dissector, show) }
                dissector.noteCaptureError("\(error)")
                if error.endsStream {
                    readError = error
                    break
                }
                if !options.json && !options.summaryOnly { out.line("        ! \(error)") }
                continue
            }
            // Records without a packet that came before this one, in file order.
            if monitorCapture, !reader.pendingNotes.isEmpty { showNotes(&reader, dissector, show) }
            dissector.dissect(record, into: &packet)
            show.packet(packet)
        }
        if monitorCapture { showNotes(&reader, dissector, show) }
        if let e = readError {
            err.line("rtstack: \(path): \(e) (the packets before it were decoded)")
        }
        if reader.notesDropped > 0 {
            err.line("rtstack: \(path): \(reader.notesDropped) monitor records in a row without a packet were not shown")
        }
        show.finish(statistics: dissector.statistics, file: path, summary: options.summary || options.summaryOnly)
        out.flush()
        return .success
    }

    private static func showNotes(_ reader: inout CaptureReader, _ dissector: PacketDissector, _ show: Presenter) {
        for note in reader.takeNotes() {
            if let frame = note.monitorFrame { show.note(dissector.dissect(monitor: frame)) }
        }
    }
}
