import Foundation
import Testing

extension WorldIntegration {
    /// Issue 17 §2: the commonest failures of the commands, from the real binary against Bumble
    /// peers: each says what was wrong and what to do.
    @Suite("Errors that say what to do")
    struct ErrorAdvice {
        static let quiet = ["--speed", "0", "--distractors", "0", "--rate", "0"]
        static let thingyName = "EF680101-9B35-4933-9B10-52FFA9740042"

        /// A world with `options`, the `device`'s address with its type, and the adapter and
        /// state-directory arguments, for `body`; the world and the directory go afterwards.
        static func withPeer(_ device: String, _ options: [String], label: String,
                             _ body: (WorldProcess, String, [String]) async throws -> Void) async throws {
            let world = try await WorldProcess.start(quiet + options)
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory(label)
            defer { try? FileManager.default.removeItem(at: dir) }
            try await body(world, try world.device(device).address + "/random", WorldIntegration.adapter(world) + ["--state-dir", dir.path])
        }

        @Test("read of a characteristic the peer lacks lists the ones it has and names rtstack gatt; subscribe to one that cannot notify names read and the ones that do; a device that is not there says what to check")
        func missingAndUnsubscribableCharacteristics() async throws {
            try await Self.withPeer("Heart 1", ["--environment", "0"], label: "advice-missing") { _, heart, adapter in
                let read = try await RtstackProcess.run(["read", heart, "2A6E"] + adapter, timeout: 20)
                #expect(read.status == 1, "\(read.transcript)")
                #expect(read.stderr.contains("rtstack: the peer \(heart) has no characteristic Temperature (2A6E)"), "\(read.transcript)")
                #expect(read.stderr.contains("  it has ") && read.stderr.contains("Heart Rate Measurement (2A37) at 0x"), "\(read.transcript)")
                #expect(read.stderr.contains("Body Sensor Location (2A38) at 0x0013"), "\(read.transcript)")
                #expect(read.stderr.contains("rtstack gatt \(heart) shows them"), "\(read.transcript)")

                let sub = try await RtstackProcess.run(["subscribe", heart, "2A38", "--duration", "2"] + adapter, timeout: 20)
                #expect(sub.status == 1, "\(sub.transcript)")
                #expect(sub.stderr.contains("Body Sensor Location (2A38) at 0x0013 neither notifies nor indicates (its properties: Read)"),
                        "\(sub.transcript)")
                #expect(sub.stderr.contains("read it instead (rtstack read \(heart) 2A38)"), "\(sub.transcript)")
                #expect(sub.stderr.contains("the ones that notify or indicate are ") && sub.stderr.contains("Heart Rate Measurement (2A37) at 0x"),
                        "\(sub.transcript)")
                #expect(sub.stdout.isEmpty, "\(sub.transcript)")

                // A device that is not there: without its type, not seen by the scan; with it,
                // the connection times out. Both say what to check.
                let unseen = try await RtstackProcess.run(["read", "C6:00:00:00:00:99", "2A38"] + adapter, timeout: 30)
                #expect(unseen.status == 1, "\(unseen.transcript)")
                #expect(unseen.stderr.contains("C6:00:00:00:00:99 was not seen advertising within 5 s"), "\(unseen.transcript)")
                #expect(unseen.stderr.contains("  check that it is on, in range and advertising (rtstack scan shows what advertises)"),
                        "\(unseen.transcript)")
                let absent = try await RtstackProcess.run(["read", "C6:00:00:00:00:99/random", "2A38"] + adapter, timeout: 40)
                #expect(absent.status == 1, "\(absent.transcript)")
                #expect(absent.stderr.contains("rtstack: connecting to C6:00:00:00:00:99/random timed out"),
                        "\(absent.transcript)")
                #expect(absent.stderr.contains("  check that the device is on, in range, advertising connectably"), "\(absent.transcript)")
            }
        }

        @Test("a value too long for the characteristic: the peer's Invalid Attribute Value Length says to write as many octets as it takes; one above 512 octets is refused before connecting")
        func writeTooLong() async throws {
            try await Self.withPeer("Thingy 1", ["--heart", "0"], label: "advice-long") { world, thingy, adapter in
                // The Thingy's name takes 1 to 10 octets; 11 are answered with 0x0D.
                let long = try await RtstackProcess.run(["write", thingy, Self.thingyName, String(repeating: "41", count: 11)] + adapter,
                                                        timeout: 20)
                #expect(long.status == 1, "\(long.transcript)")
                #expect(long.stderr.contains("ATT error Invalid Attribute Value Length (0x0d) for Write Request (0x12)"), "\(long.transcript)")
                #expect(long.stderr.contains("  the value has a length this characteristic does not take: write as many octets as"),
                        "\(long.transcript)")
                let fits = try await RtstackProcess.run(["write", thingy, Self.thingyName, "4142"] + adapter, timeout: 20)
                #expect(fits.status == 0, "\(fits.transcript)")

                let tooLong = try await RtstackProcess.run(["write", thingy, Self.thingyName, String(repeating: "00", count: 513)] + adapter,
                                                           timeout: 20)
                #expect(tooLong.status == 2, "\(tooLong.transcript)")
                #expect(tooLong.stderr.contains("is 513 octets; an attribute value holds at most 512"), "\(tooLong.transcript)")
                #expect(world.events("peripheral_connected").count == 2, "the write above 512 octets connected")
            }
        }

        @Test("ATT errors the peer sends carry their remedy: an application error (0x80) names the service's specification, CCCD Improperly Configured (0xFD) names subscribe")
        func attErrorsCarryTheirRemedy() async throws {
            try await Self.withPeer("Heart 1", ["--environment", "0"], label: "advice-att") { world, heart, adapter in
                // HRS 1.0 §3.3.1: a Heart Rate Control Point value other than 0x01 gets 0x80.
                let control = try await RtstackProcess.run(["write", heart, "2A39", "05"] + adapter, timeout: 20)
                #expect(control.status == 1, "\(control.transcript)")
                #expect(control.stderr.contains("Application Error 0x80"), "\(control.transcript)")
                #expect(control.stderr.contains("an error of the service's own specification"), "\(control.transcript)")

                try world.control(#"{"cmd":"att_error","device":"Heart 1","uuid":"2A38","error":253}"#)
                let read = try await RtstackProcess.run(["read", heart, "2A38"] + adapter, timeout: 20)
                #expect(read.status == 1, "\(read.transcript)")
                #expect(read.stderr.contains("Improperly Configured (0xfd)") && read.stderr.contains("subscribe (rtstack subscribe ADDRESS UUID)"), "\(read.transcript)")
            }
        }

        @Test("subscribe whose peer ends the link exits 1 naming the reason and what to do (it exited 0 before)")
        func subscribeWhosePeerDisconnects() async throws {
            // The last --rate is the one the world takes.
            try await Self.withPeer("Heart 1", ["--environment", "0", "--rate", "5"], label: "advice-drop") { world, heart, adapter in
                let sub = try RtstackProcess(["subscribe", heart, "2A37", "--json"] + adapter, timeout: 30)
                let values = await sub.wait(timeout: 15) { lines in lines.contains { $0["uuid"]?.string == "2A37" } }
                #expect(values, "no value before the drop")
                _ = try world.control(#"{"cmd":"drop","device":"Heart 1","reason":19}"#)
                let r = try await sub.finish()
                #expect(r.status == 1, "\(r.transcript)")
                #expect(r.stderr.contains("rtstack: disconnected: Remote User Terminated Connection (0x13)"), "\(r.transcript)")
                #expect(r.stderr.contains("  the peer ended the link: run the command again"), "\(r.transcript)")
            }
        }

        @Test("an adapter that is not there: a TCP port nothing listens on, a serial device that does not exist, an hciN without kernel Bluetooth; each exits 3 with its fix")
        func unknownAdapters() async throws {
            let dir = try PackagePaths.temporaryDirectory("advice-adapter")
            defer { try? FileManager.default.removeItem(at: dir) }
            let base = ["read", "C6:05:04:03:02:01/random", "2A38", "--state-dir", dir.path]
            let tcp = try await RtstackProcess.run(base + ["--adapter", "tcp:127.0.0.1:1"], timeout: 20)
            #expect(tcp.status == 3, "\(tcp.transcript)")
            #expect(tcp.stderr.contains("no controller listening on 127.0.0.1:1 (connection refused)"), "\(tcp.transcript)")
            #expect(tcp.stderr.contains("start the controller's TCP server"), "\(tcp.transcript)")

            let serial = try await RtstackProcess.run(base + ["--adapter", "/dev/ttyRTSTACKNONE"], timeout: 20)
            #expect(serial.status == 3, "\(serial.transcript)")
            #expect(serial.stderr.contains("cannot open /dev/ttyRTSTACKNONE") && serial.stderr.contains("is the adapter plugged in?"),
                    "\(serial.transcript)")

            let hci = try await RtstackProcess.run(base + ["--adapter", "hci99"], timeout: 20)
            #expect(hci.status == 3, "\(hci.transcript)")
            // Without kernel Bluetooth (these machines) the fix is the module; with it, hci99 is absent.
            #expect(hci.stderr.contains("modprobe bluetooth") || hci.stderr.contains("hci99: no such adapter"), "\(hci.transcript)")
        }
    }
}
