import HostCore
import Sensors
import Wire

/// Replays a recorded run session (Docs/replay.md): builds an `HCIHost` and a `SessionController`
/// as `rtstack --adapter … --json` does, feeds them the recording's controller→host packets
/// with their times, and collects the host→controller packets the core sends. Because the core
/// is sans-I/O and deterministic, those must be the recorded host→controller packets, byte for
/// byte and in order; any difference is a behaviour change (or a nondeterminism) in the core.
///
/// It reproduces what the Runtime's `AdapterDriver` and the CLI's `SessionApplication` do on
/// the loop thread: after every input the host's packets and then its events are pulled; the session
/// starts on `.controllerReady`; deadlines (the host's and the session's) fire when they fall
/// before the next recorded packet. The user's end of the session (`--duration`, Ctrl-C) is
/// not in a recording; `StopPoint` says where to put it.
public enum SessionReplay {
    /// One packet of a recording.
    public struct Packet: Sendable {
        /// Monotonic nanoseconds, the first packet of the recording at 0.
        public var time: HostTime
        public var direction: Direction
        public var packet: HCIPacket

        public init(time: HostTime, direction: Direction, packet: HCIPacket) {
            self.time = time
            self.direction = direction
            self.packet = packet
        }

        /// A recording's packets from capture timestamps (microseconds, any origin), made
        /// relative to the first one. Times never go backwards: a record stamped earlier than
        /// the one before it (which a monotonic recorder does not write) takes that one's time.
        public static func timeline(_ records: [(timestampMicros: Int64, direction: Direction, packet: HCIPacket)]) -> [Packet] {
            guard let origin = records.first?.timestampMicros else { return [] }
            var out: [Packet] = []
            out.reserveCapacity(records.count)
            var last: HostTime = 0
            for r in records {
                // Timestamps are input: far-apart or garbage values saturate instead of trapping.
                let (delta, overflow) = r.timestampMicros.subtractingReportingOverflow(origin)
                let nanos: HostTime
                if overflow {
                    nanos = r.timestampMicros > origin ? HostTime.max : 0
                } else if delta < 0 {
                    nanos = 0
                } else {
                    let (n, big) = UInt64(delta).multipliedReportingOverflow(by: 1000)
                    nanos = big ? HostTime.max : n
                }
                let t = max(last, nanos)
                out.append(Packet(time: t, direction: r.direction, packet: r.packet))
                last = t
            }
            return out
        }
    }

    /// Where the user ended the session.
    public enum StopPoint: Sendable, Equatable {
        /// At the first Disconnect command of the recording, at its time: `--duration` and
        /// Ctrl-C end a session by disconnecting every link, and nothing else in a clean run
        /// sends Disconnect before that.
        case firstDisconnectCommand
        /// Never: the recording ends while the session runs.
        case never
    }

    /// A packet the replayed core sent to the controller.
    public struct Sent: Sendable {
        public var packet: HCIPacket
        public var time: HostTime
        /// Index in the recording of the last input given to the core when this was sent (a
        /// controller packet, or the Disconnect command where the session was stopped); nil
        /// before any. Locates a divergence.
        public var afterRecording: Int?
    }

    public struct Outcome: Sendable {
        /// Host→controller packets the core sent, in order.
        public var sent: [Sent] = []
        /// Everything the session reported.
        public var sessionEvents: [SessionEvent] = []
        /// Warnings the host raised (malformed or unexpected input).
        public var warnings: [HostWarning] = []
        /// The session's summary (its final one when it finished).
        public var summary = SessionSummary()
        public var finished = false
        /// When the replay stopped the session; nil when it never did.
        public var stoppedAt: HostTime?
        /// Problems of the replay itself (a recording it cannot follow), not of the core.
        public var problems: [String] = []

        public var measurements: [(role: SensorRole, measurement: DecodedSensorValue)] {
            sessionEvents.compactMap { e in
                if case let .measurement(role, m, _, _) = e { return (role, m) }
                return nil
            }
        }
    }

    /// The own address the recorded host used: the one of its LE Set Random Address command
    /// (bring-up sets it for a random static own address), else the controller's public one.
    public static func ownAddress(in packets: [Packet]) -> HostConfiguration.OwnAddress {
        for p in packets where p.direction == .hostToController && p.packet.type == .command {
            guard let command = try? HCICommandPacket(p.packet), command.opcode == LESetRandomAddress.opcode,
                  let set = try? command.decode(LESetRandomAddress.self) else { continue }
            return .randomStatic(set.randomAddress)
        }
        return .publicAddress
    }

    /// Index of the first Disconnect command the recorded host sent.
    public static func firstDisconnectCommand(in packets: [Packet]) -> Int? {
        packets.firstIndex { p in
            p.direction == .hostToController && p.packet.type == .command
                && (try? HCICommandPacket(p.packet))?.opcode == .disconnect
        }
    }

    /// Replays `packets`. `host` defaults to the CLI's configuration with the recording's own
    /// address; `session` to the CLI's defaults (no `--only`, no fixed addresses). `cache`
    /// stands for the state directory's GATT cache at the start of the recorded run.
    public static func run(_ packets: [Packet], host: HostConfiguration? = nil,
                           session: SessionController.Configuration = SessionController.Configuration(),
                           cache: GATTCacheStore? = nil, stop: StopPoint = .firstDisconnectCommand) -> Outcome {
        let runner = Runner(packets: packets,
                            host: host ?? HostConfiguration(ownAddress: ownAddress(in: packets)),
                            session: session, cache: cache, stop: stop)
        runner.run()
        return runner.outcome
    }
}

extension SessionReplay {
    /// The replay's loop: the `AdapterDriver` + `SessionApplication` pair without sockets or
    /// clocks.
    fileprivate final class Runner {
        let packets: [Packet]
        let sessionConfiguration: SessionController.Configuration
        let cache: GATTCacheStore?
        let stopIndex: Int?
        let host: HCIHost
        var session: SessionController?
        var outcome = Outcome()
        var now: HostTime = 0
        /// Index of the last recorded input given to the host (stamped on what it sends).
        var consumed: Int?

        init(packets: [Packet], host configuration: HostConfiguration, session: SessionController.Configuration,
             cache: GATTCacheStore?, stop: StopPoint) {
            self.packets = packets
            self.sessionConfiguration = session
            self.cache = cache
            switch stop {
            case .firstDisconnectCommand: stopIndex = SessionReplay.firstDisconnectCommand(in: packets)
            case .never: stopIndex = nil
            }
            host = HCIHost(configuration: configuration)
        }

        func run() {
            // The driver is made, and the host started, at the time of the first packet (the
            // Reset it sends is that packet).
            now = packets.first?.time ?? 0
            host.start(at: now)
            drain()
            for (i, p) in packets.enumerated() {
                switch p.direction {
                case .controllerToHost:
                    fireDeadlines(before: p.time)
                    now = max(now, p.time)
                    consumed = i
                    host.receive(p.packet, at: now)
                    drain()
                case .hostToController:
                    // What the recorded host sent is the expected output, not an input; only
                    // the stop point is read from it.
                    if i == stopIndex { stopSession(at: p.time, index: i) }
                }
            }
            // Deadlines the recorded run still reached: up to its last packet (the recorder
            // stopped with the program, so later ones never fired).
            if let last = packets.last { fireDeadlines(through: last.time) }
            if let s = session { outcome.summary = s.summary }
        }

        /// The session's end, as `SessionApplication.deadlineReached` does it for `--duration`.
        private func stopSession(at time: HostTime, index: Int) {
            fireDeadlines(through: time)
            now = max(now, time)
            consumed = index
            outcome.stoppedAt = now
            if let s = session {
                s.stop(at: now)
                takeSessionEvents()
                if s.isFinished { outcome.finished = true }
            } else {
                outcome.problems.append("the recording stops the session (packet \(index)) before the controller was ready")
            }
            drain()
        }

        // MARK: Time

        private var nextDeadline: HostTime? {
            switch (host.nextDeadline, session?.nextDeadline) {
            case let (a?, b?): return min(a, b)
            case let (a?, nil): return a
            case let (nil, b?): return b
            case (nil, nil): return nil
            }
        }

        /// Fires every deadline strictly before `time`, the time of the next recorded packet.
        /// A deadline at exactly that time is left for after the packet: the recording cannot
        /// tell which the loop handled first, and such ties do not occur in practice.
        private func fireDeadlines(before time: HostTime) {
            while let d = nextDeadline, d < time { guard fire(d) else { return } }
        }

        private func fireDeadlines(through time: HostTime) {
            while let d = nextDeadline, d <= time { guard fire(d) else { return } }
        }

        /// `HostDriver.deadlineReached`: the host first, its events, then the application.
        /// False when the deadline did not move (a core that keeps asking for a past time),
        /// which would otherwise loop forever.
        private func fire(_ deadline: HostTime) -> Bool {
            now = max(now, deadline)
            if let d = host.nextDeadline, d <= now { host.advanceTime(to: now) }
            drain()
            if let s = session {
                s.advanceTime(to: now)
                takeSessionEvents()
                if s.isFinished { outcome.finished = true }
            }
            drain()
            if let d = nextDeadline, d <= now {
                outcome.problems.append("deadline \(d) still due after advancing to \(now)")
                return false
            }
            return true
        }

        // MARK: Outputs

        /// Takes what the host has for the controller, then hands its events to the application;
        /// whatever the application asks in turn is taken the same way (`AdapterDriver.settle`).
        private func drain() {
            while true {
                var progressed = false
                while let p = host.pollTransmit(at: now) {
                    progressed = true
                    // The host may lend a slice of a reused buffer: keep a copy.
                    outcome.sent.append(Sent(packet: HCIPacket(type: p.type, bytes: Array(p.bytes)), time: now,
                                             afterRecording: consumed))
                }
                while let e = host.pollEvent() {
                    progressed = true
                    hostEvent(e)
                }
                if !progressed { return }
            }
        }

        /// `SessionApplication.hostEvent`.
        private func hostEvent(_ event: HostEvent) {
            switch event {
            case .controllerReady:
                guard session == nil else { break }
                let s = SessionController(configuration: sessionConfiguration, host: host, cache: cache)
                session = s
                s.start(at: now)
                takeSessionEvents()
                return
            case .controllerFailed(let error):
                if session == nil {
                    outcome.problems.append("the controller did not come up: \(error.description)")
                    return
                }
            case .warning(let w):
                outcome.warnings.append(w)
            default:
                break
            }
            session?.handle(event, at: now)
            takeSessionEvents()
            if session?.isFinished == true { outcome.finished = true }
        }

        private func takeSessionEvents() {
            while let e = session?.pollEvent() { outcome.sessionEvents.append(e) }
        }
    }
}
