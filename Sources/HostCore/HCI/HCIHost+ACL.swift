import Wire

extension HCIHost {
    /// Inbound data: ACL packet → the link's reassembly → by channel to the GATT session
    /// (ATT), the LE signaling answers or the Security Manager answer. A notification that
    /// arrives in one ACL packet reaches `GATTClient.receive` as a slice of that packet,
    /// with no allocation on the way.
    func handleACL(_ bytes: ArraySlice<UInt8>, at now: HostTime) {
        let packet: ACLPacket
        do {
            packet = try ACLPacket.decode(bytes)
        } catch {
            warn("malformed ACL packet dropped: \(error)", bytes)
            return
        }
        guard let link = connections[packet.handle] else {
            warn("ACL data for handle \(Hex.number(packet.handle, width: 4)), which has no connection, dropped", bytes)
            return
        }
        // A PDU in one packet (every notification that fits the controller's buffer) goes
        // straight to its channel; fragments and faults take the reassembler's full path.
        if let frame = link.reassembler.wholeFrame(packet) {
            route(frame, on: link, at: now)
            return
        }
        let output = link.reassembler.feed(packet)
        if let issue = output.abandoned { warn("L2CAP reassembly: \(issue)") }
        if let issue = output.issue { warn("L2CAP reassembly: \(issue)", bytes) }
        guard let frame = output.frame else { return }
        route(frame, on: link, at: now)
    }

    private func route(_ frame: L2CAPFrame, on link: Connection, at now: HostTime) {
        switch frame.channelID {
        case .att:
            if let observer = attObserver { observer(link.link, frame.payload) }
            link.client.receive(frame.payload, at: now)
        case .leSignaling:
            signaling(frame.payload, on: link, at: now)
        case .securityManager:
            securityManager(frame.payload, on: link, at: now)
        default:
            warn("L2CAP frame on channel \(frame.channelID) of \(link.link), which the host does not use, dropped",
                 frame.payload)
        }
    }

    private func signaling(_ payload: ArraySlice<UInt8>, on link: Connection, at now: HostTime) {
        let handle = link.handle
        let reply = LESignalingResponder.answer(payload)
        if let w = reply.warning { deliver(.warning(w)) }
        if let response = reply.response {
            // §4.20: the response first, then the update procedure (ACL data goes out before
            // the command only if credits allow; the order on the air is the controller's).
            acl.enqueue(handle: handle, channel: .leSignaling, payload: response.encoded[...])
        }
        if let p = reply.connectionUpdate {
            // Newer parameters replace an update not sent yet, so a peer repeating its request
            // cannot grow the command queue while the controller is slow to take commands.
            let id = link.link
            commands.removeWaiting { $0 == .connectionUpdate(id) }
            send(LEConnectionUpdate(connectionHandle: handle, connectionIntervalMin: p.intervalMin,
                                    connectionIntervalMax: p.intervalMax, maxLatency: p.peripheralLatency,
                                    supervisionTimeout: p.timeoutMultiplier),
                 purpose: .connectionUpdate(link.link))
        }
    }
}
