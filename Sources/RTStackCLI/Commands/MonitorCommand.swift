import Wire
import Capture
import Dissector
import Runtime

/// `rtstack monitor`: what every adapter of the kernel does right now — bluetoothd, another
/// program, rtstack's kernel backend — read from the HCI monitor channel as btmon reads it,
/// and shown the way `decode` shows a capture.
enum MonitorCommand {
    static let spec = CommandSpec(
        name: "monitor",
        usage: "rtstack monitor [--json] [--hex] [--brief] [--no-summary] [--filter TERM]... [--index N]... [--peer ADDRESS]... [--duration SECONDS] [--write FILE|-] [--adv-summary [--adv-every SECONDS]] [--gatt-cache DIR | --no-gatt-cache] [--show-keys] [--from CAPTURE]",
        summary: "Watch the kernel's Bluetooth adapters live (HCI monitor channel, as btmon), decoded.",
        options: DissectionSetup.specOptions + [
            .init(.index, value: "N", repeatable: true, "only adapter N (hciN)"),
            .init(.peer, value: "ADDRESS", repeatable: true,
                  "only what concerns this device: its connections (handles mapped from the connection events seen), its advertising"),
            .init(.duration, value: "SECONDS", "stop after SECONDS (default: until Ctrl-C)"),
            .init(.write, value: "FILE",
                  "also write every frame: FILE.btsnoop (btsnoop 2001), FILE.pcap (pcap LINKTYPE 254), or - for pcap on stdout (| wireshark -k -i -)"),
            .init(.advEvery, value: "SECONDS", "with --adv-summary, print the table every SECONDS (default 10)"),
            .init(.from, value: "CAPTURE",
                  "read the frames of a capture instead of the kernel (a Linux monitor capture keeps its adapters; others are hci0)"),
        ],
        details: """
        Every adapter, also ones added while it runs: adapters added and removed (= lines),
        the kernel's system notes, programs opening HCI and management sockets and their
        management commands and events (@ lines), and every command, event, ACL, SCO and ISO
        packet, decoded as `rtstack decode` decodes them, with the adapter named.
        Needs CAP_NET_RAW (root, or 'sudo setcap cap_net_raw+ep $(which rtstack)').
        With --write - the standard output carries only pcap; the summary goes to stderr.
        Exit status: 0 stopped by Ctrl-C, --duration or the end of --from; 2 bad command line;
        3 the monitor channel could not be opened (no kernel Bluetooth, no CAP_NET_RAW);
        1 writing --write failed; 4 --from could not be read.
        """)

    static func run(_ words: [String], _ console: Console) throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested {
            console.out.write(spec.helpText)
            return .success
        }
        var setup = try DissectionSetup(args)
        for n in args.all(.index) {
            do { try setup.filter.add(term: "index=" + n) } catch {
                throw UsageError("--index \(n): not an adapter index (0, 1 … or hci0, hci1 …)")
            }
        }
        for a in args.all(.peer) {
            do { try setup.filter.add(term: "peer=" + a) } catch {
                throw UsageError("--peer \(a): not a device address (AA:BB:CC:DD:EE:FF)")
            }
        }
        setup.options.resolvesAdvertisers = !setup.filter.peers.isEmpty || setup.advertisingSummary
        setup.options.showsAdapter = true
        let duration = try args.double(.duration, in: 0.001...1e9)
        let tick = try args.double(.advEvery, in: 0.1...86_400) ?? 10
        for notice in setup.notices { console.err.line("rtstack: \(notice)") }

        let pcapOnStdout = args.value(.write) == "-"
        var writer: MonitorCaptureWriter?
        if let path = args.value(.write) {
            do {
                writer = try MonitorCaptureWriter(path: path)
            } catch {
                console.err.line("rtstack: --write \(path): \(error)")
                return .failure
            }
        }
        let session = Session(setup: setup, json: args.flag(.json), hex: args.flag(.hex), brief: args.flag(.brief),
                              quiet: pcapOnStdout, writer: writer, console: console)
        let code: ExitCode
        if let path = args.value(.from) {
            code = session.replay(path)
        } else {
            code = session.live(duration: duration, tick: tick)
        }
        // Nothing was monitored when the source could not be opened: no totals then.
        session.finish(summary: !args.flag(.noSummary) && code != .adapter && code != .input)
        return code
    }

    /// One monitor run: frames in, decoded lines (and the capture file) out.
    final class Session {
        let dissector: PacketDissector
        let presenter: Presenter
        let writer: MonitorCaptureWriter?
        let console: Console
        let quiet: Bool
        let json: Bool
        private var packet = DissectedPacket(index: 0, timestampMicros: 0, relativeTime: 0,
                                             direction: .controllerToHost, type: .event, bytes: [])
        private var writeFailed = false

        init(setup: DissectionSetup, json: Bool, hex: Bool, brief: Bool, quiet: Bool, writer: MonitorCaptureWriter?,
             console: Console) {
            dissector = PacketDissector(collectFields: !brief && !quiet, options: setup.options)
            // With pcap on stdout the decoded lines have nowhere to go: only the totals, on stderr.
            presenter = Presenter(json: json, hex: hex, brief: brief, summaryOnly: quiet, filter: setup.filter,
                                  advertisingSummary: setup.advertisingSummary && !quiet,
                                  out: quiet ? console.err : console.out)
            self.writer = writer
            self.console = console
            self.quiet = quiet
            self.json = json
        }

        /// One frame: written to the capture, dissected, shown. False once writing failed.
        func process(_ frame: MonitorFrame) -> Bool {
            if let writer {
                do {
                    try writer.write(frame)
                } catch {
                    writeFailed = true
                    console.err.line("rtstack: --write \(writer.path): \(error)")
                    return false
                }
            }
            if let record = frame.record {
                dissector.dissect(record, into: &packet)
                presenter.packet(packet)
            } else {
                presenter.note(dissector.dissect(monitor: frame))
            }
            return true
        }

        func live(duration: Double?, tick: Double) -> ExitCode {
            let socket: HCIMonitorSocket
            do {
                socket = try HCIMonitorSocket()
            } catch {
                console.err.line("rtstack: " + AdapterAdvice.text(for: error))
                return .adapter
            }
            for c in HCIAdapters.openLEConnections() {
                // The kernel does not say which kind the address is; the label lookup falls
                // back to the address alone.
                let type: LEAddressType = c.address.randomKind == .staticAddress ? .randomDevice : .publicDevice
                dissector.assumeConnection(adapter: c.adapterIndex, handle: c.handle, peer: DeviceAddress(c.address, type: type))
            }
            let signals = try? SignalWatcher.install()
            if !json && !quiet { presenter.out.line("# monitor: HCI monitor channel, every adapter (Ctrl-C stops)") }
            presenter.out.flush()
            let deadline = duration.map { MonotonicClock.now() &+ UInt64($0 * 1e9) }
            let end = MonitorLoop.run(
                socket: socket, signals: signals, deadline: deadline,
                tickNanoseconds: presenter.advertising == nil ? nil : UInt64(tick * 1e9),
                onTick: { [presenter] in
                    presenter.showAdvertising()
                    presenter.out.flush()
                },
                onFrames: { [self] in readWaiting(socket) })
            signals?.uninstall()
            switch end {
            case .failed(let why):
                console.err.line("rtstack: monitor: \(why)")
                return .adapter
            case .stopped:
                return writeFailed ? .failure : .success
            case .interrupted, .duration:
                return .success
            }
        }

        /// Everything the socket holds now (at most a batch, so that ticks keep their pace).
        private func readWaiting(_ socket: HCIMonitorSocket) -> Bool {
            defer { presenter.out.flush() }
            for _ in 0..<4096 {
                let received: HCIMonitorSocket.Received?
                do {
                    received = try socket.receive()
                } catch {
                    console.err.line("rtstack: " + AdapterAdvice.text(for: error))
                    return false
                }
                switch received {
                case nil:
                    return true
                case .frame(let frame)?:
                    if !process(frame) { return false }
                case .malformed(let bytes, let why)?:
                    dissector.noteCaptureError("monitor frame of \(bytes.count) octets: \(why)")
                    if !json && !quiet { presenter.out.line("        ! monitor frame of \(bytes.count) octets: \(why)") }
                }
            }
            return true
        }

        /// The frames of a Linux monitor capture, through the same path as live ones.
        func replay(_ path: String) -> ExitCode {
            var reader: CaptureReader
            do {
                reader = try CaptureFile.open(path: path)
            } catch {
                console.err.line("rtstack: \(path): \(error)")
                return .input
            }
            // Any capture: packets of a single-adapter format count as hci0's.
            reader.noteLimit = 1 << 16
            func notes(_ reader: inout CaptureReader) -> Bool {
                for note in reader.takeNotes() {
                    if let frame = note.monitorFrame, !process(frame) { return false }
                }
                return true
            }
            while true {
                let record: CaptureRecord
                do {
                    guard let next = try reader.next() else { break }
                    record = next
                } catch {
                    guard notes(&reader) else { return .failure }
                    dissector.noteCaptureError("\(error)")
                    if error.endsStream {
                        console.err.line("rtstack: \(path): \(error) (the frames before it were shown)")
                        break
                    }
                    continue
                }
                if !reader.pendingNotes.isEmpty, !notes(&reader) { return .failure }
                if !process(MonitorFrame(record: record)) { return .failure }
            }
            return notes(&reader) ? .success : .failure
        }

        func finish(summary: Bool) {
            presenter.finish(statistics: dissector.statistics, file: nil, summary: summary)
            presenter.out.flush()
            try? writer?.close()
        }
    }
}
