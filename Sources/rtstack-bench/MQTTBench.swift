import Glibc
import MQTT

/// MQTT: the poll-driven client against Debian's mosquitto on 127.0.0.1, publisher and
/// subscriber on one `MQTTPollLoop` (one thread, as in the gateway's loop). Throughput: COUNT
/// messages of 32 octets published at once, until the subscriber has every one (messages/s,
/// CPU seconds per 1,000). Latency: messages at RATE per second, each carrying its send time,
/// publish → subscriber's `.message` (p50/p99). Broker CPU is not counted.
func runMQTTBench(count: Int, qos: MQTTQoS, rate: Int) {
    guard access("/usr/sbin/mosquitto", X_OK) == 0 else {
        print("mqtt: /usr/sbin/mosquitto is not installed (Debian package mosquitto; scripts/setup installs it)")
        return
    }
    // mosquitto's default leaves Nagle's algorithm on for its clients (set_tcp_nodelay false),
    // which holds small messages back for the subscriber's delayed ACK; both settings measured.
    for nodelay in [false, true] {
        print("broker set_tcp_nodelay \(nodelay):")
        runMQTTBench(count: count, qos: qos, rate: rate, nodelay: nodelay)
    }
}

private func runMQTTBench(count: Int, qos: MQTTQoS, rate: Int, nodelay: Bool) {
    guard let broker = BenchBroker.start(nodelay: nodelay) else { return }
    defer { broker.stop() }
    do {
        let url = try MQTTBrokerURL(parsing: "mqtt://127.0.0.1:\(broker.port)")
        let sub = try MQTTClient(configuration: MQTTClientConfiguration(broker: url, clientID: "bench-sub", queueLimit: 1000))
        let pub = try MQTTClient(configuration: MQTTClientConfiguration(broker: url, clientID: "bench-pub", queueLimit: max(count, 1000)))
        try sub.subscribe("bench/#", qos: qos)
        let loop = MQTTPollLoop([sub, pub])
        sub.start(at: MQTTClock.now())
        pub.start(at: MQTTClock.now())
        var subscribed = false, connected = false
        loop.run(timeout: 10) {
            while let e = sub.nextEvent() { if case .subscribed = e { subscribed = true } }
            while let e = pub.nextEvent() { if e == .connected { connected = true } }
            return subscribed && connected
        }
        guard subscribed && connected else { print("mqtt: no connection to the broker"); return }

        // Throughput.
        var received = 0
        let cpu0 = cpuSeconds(), t0 = benchSeconds()
        var payload = [UInt8](repeating: 0x61, count: 32)
        for i in 0..<count {
            payload[0] = UInt8(truncatingIfNeeded: i)
            try pub.publish(MQTTMessage(topic: "bench/t", payload: payload, qos: qos))
        }
        let done = loop.run(timeout: 120) {
            while let e = sub.nextEvent() { if case .message = e { received += 1 } }
            while pub.nextEvent() != nil {}
            return received >= count
        }
        let seconds = benchSeconds() - t0, cpu = cpuSeconds() - cpu0
        print("mqtt throughput, QoS \(qos.rawValue), \(count) messages of 32 octets: \(fmt(Double(received) / seconds, 0)) messages/s, "
              + "\(fmt(cpu / Double(max(1, received)) * 1000, 4)) CPU s per 1,000 (publisher + subscriber, one thread)"
              + (done ? "" : " — only \(received) arrived within 120 s"))

        // Latency at a steady rate.
        var latencies: [Double] = []
        let samples = min(count, rate * 10)
        var next = benchSeconds()
        var sent = 0
        let end = next + Double(samples) / Double(rate) + 10
        // The loop wakes for each send time, as the gateway's loop wakes for each notification.
        while latencies.count < samples && benchSeconds() < end {
            loop.runOnce(timeout: sent < samples ? max(0, next - benchSeconds()) : 0.05)
            while sent < samples && benchSeconds() >= next {
                var p = [UInt8](repeating: 0, count: 32)
                withUnsafeBytes(of: benchSeconds().bitPattern) { for (i, b) in $0.enumerated() { p[i] = b } }
                _ = try? pub.publish(MQTTMessage(topic: "bench/l", payload: p, qos: qos))
                sent += 1
                next += 1 / Double(rate)
            }
            while let e = sub.nextEvent() {
                guard case .message(let m) = e, m.topic == "bench/l", m.payload.count >= 8 else { continue }
                var bits: UInt64 = 0
                for i in 0..<8 { bits |= UInt64(m.payload[i]) << (8 * UInt64(i)) }
                latencies.append(benchSeconds() - Double(bitPattern: bits))
            }
            while pub.nextEvent() != nil {}
        }
        let s = latencies.sorted()
        print("mqtt latency, QoS \(qos.rawValue), \(s.count) of \(samples) samples at \(rate)/s, publish → subscriber: p50 \(fmt(percentile(s, 50) * 1e6, 0)) µs, "
              + "p99 \(fmt(percentile(s, 99) * 1e6, 0)) µs, max \(fmt((s.last ?? 0) * 1e6, 0)) µs")
        pub.stop(at: MQTTClock.now())
        sub.stop(at: MQTTClock.now())
        loop.run(timeout: 3) { pub.state == .stopped && sub.state == .stopped }
    } catch {
        print("mqtt: \(error)")
    }
}

private func cpuSeconds() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
}

/// mosquitto on a free port of 127.0.0.1, without persistence, for the benchmark's run.
struct BenchBroker {
    let pid: pid_t
    let port: UInt16
    let directory: String

    static func start(nodelay: Bool) -> BenchBroker? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 } }
        close(fd)
        let port = UInt16(bigEndian: a.sin_port)
        let dir = "/tmp/rtstack-bench-mqtt-\(getpid())"
        mkdir(dir, 0o700)
        let conf = dir + "/mosquitto.conf"
        let f = fopen(conf, "w")
        fputs("listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\nlog_type none\n" + (nodelay ? "set_tcp_nodelay true\n" : ""), f)
        fclose(f)
        var pid: pid_t = 0
        let args = ["/usr/sbin/mosquitto", "-c", conf]
        var cargs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        guard posix_spawn(&pid, args[0], nil, nil, &cargs, environ) == 0 else {
            print("mqtt: could not start mosquitto")
            return nil
        }
        let broker = BenchBroker(pid: pid, port: port, directory: dir)
        for _ in 0..<500 {
            let c = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var b = a
            b.sin_port = port.bigEndian
            let ok = withUnsafePointer(to: &b) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(c, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 } }
            close(c)
            if ok { return broker }
            usleep(10_000)
        }
        print("mqtt: mosquitto did not listen on port \(port) within 5 s")
        broker.stop()
        return nil
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        unlink(directory + "/mosquitto.conf")
        rmdir(directory)
    }
}

/// CLOCK_MONOTONIC in seconds, for the benchmark's own rates and latencies.
private func benchSeconds() -> Double { Double(MQTTClock.now()) / 1e9 }
