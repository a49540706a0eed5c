import Glibc
import MQTT

// A separate process for the MQTT tests that need one: it connects with an availability topic
// (retained "online", last will "offline"), prints "connected" and then publishes nothing, so
// that a test can SIGKILL it and watch the broker publish the will. Also the check that dlopen
// of libmosquitto works from a --static-swift-stdlib build (Docs/embedded.md):
//
//     rtstack-mqtt-probe URL CLIENT-ID AVAILABILITY-TOPIC [CA-FILE]
//
// Exit status 0 after a clean stop (stdin closed), 2 bad arguments, 3 MQTT could not be set up,
// 4 no connection within 10 s.

/// One line to a descriptor, unbuffered, so the test sees it at once.
func say(_ text: String, to fd: Int32 = 1) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

let args = CommandLine.arguments
guard args.count == 4 || args.count == 5 else {
    say("usage: rtstack-mqtt-probe URL CLIENT-ID AVAILABILITY-TOPIC [CA-FILE]", to: 2)
    exit(2)
}
let client: MQTTClient
do {
    let url = try MQTTBrokerURL(parsing: args[1])
    client = try MQTTClient(configuration: MQTTClientConfiguration(
        broker: url, clientID: args[2], caFile: args.count == 5 ? args[4] : nil, keepAlive: 5,
        availability: .init(topic: args[3])))
} catch {
    say("rtstack-mqtt-probe: \(error)", to: 2)
    exit(3)
}
if case .success(let lib) = MosquittoLibrary.shared {
    say("libmosquitto \(lib.version.major).\(lib.version.minor).\(lib.version.revision)")
}
let loop = MQTTPollLoop([client])
client.start(at: MQTTClock.now())
var connected = false
loop.run(timeout: 10) {
    while let e = client.nextEvent() {
        if e == .connected { connected = true }
        if case .connectFailed(let reason, _) = e { say("rtstack-mqtt-probe: \(reason)", to: 2) }
    }
    return connected
}
guard connected else { exit(4) }
say("connected")

// Stay connected until stdin closes (the test kills the probe before that).
var stdinOpen = true
while stdinOpen {
    var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    if poll(&p, 1, 0) > 0 {
        var b: UInt8 = 0
        if read(0, &b, 1) <= 0 { stdinOpen = false }
    }
    loop.runOnce(timeout: 0.2)
    while client.nextEvent() != nil {}
}
client.stop(at: MQTTClock.now())
loop.run(timeout: 3) { client.state == .stopped }
say("stopped")
exit(0)
