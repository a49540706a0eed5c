import Wire

/// Totals for the end-of-decode summary; also what the tests compare with tshark's counts.
public struct DecodeStatistics: Sendable {
    public var packets = 0
    /// Packets per type, by raw value: a dictionary update per packet cost a hash each time.
    private var typeCounts = [Int](repeating: 0, count: 8)
    /// Connection handles seen in ACL data or connection events, with the peer when known.
    public var links: [UInt16: String] = [:]
    public var notificationsPerLink: [UInt16: Int] = [:]
    public var indicationsPerLink: [UInt16: Int] = [:]
    public var decodeErrors = 0
    /// First few decode errors with their packet index, for the summary.
    public var errorSamples: [String] = []

    public init() {}

    /// Packets per type, for the types seen.
    public var perType: [H4PacketType: Int] {
        get {
            var counts: [H4PacketType: Int] = [:]
            for t in H4PacketType.allCases where typeCounts[Int(t.rawValue)] > 0 {
                counts[t] = typeCounts[Int(t.rawValue)]
            }
            return counts
        }
        set {
            typeCounts = [Int](repeating: 0, count: 8)
            for (t, n) in newValue { typeCounts[Int(t.rawValue)] = n }
        }
    }

    public var attNotifications: Int { notificationsPerLink.values.reduce(0, +) }

    public mutating func count(_ p: DissectedPacket) {
        packets += 1
        typeCounts[Int(p.type.rawValue)] += 1
        if let h = p.connectionHandle, p.type == .acl, links[h] == nil { links[h] = "" }
        if let opcode = p.att?.opcode, let h = p.connectionHandle {
            if opcode == 0x1B { notificationsPerLink[h, default: 0] += 1 }
            if opcode == 0x1D { indicationsPerLink[h, default: 0] += 1 }
        }
        if !p.errors.isEmpty {
            decodeErrors += p.errors.count
            if errorSamples.count < 10 {
                for e in p.errors { errorSamples.append("#\(p.index): \(e)") }
            }
        }
    }

    public var text: String {
        var s = "Summary: \(packets) packets"
        let order: [H4PacketType] = [.command, .event, .acl, .sco, .iso]
        let perType = self.perType
        let parts = order.compactMap { t in perType[t].map { "\($0) \(t.name)" } }
        if !parts.isEmpty { s += " (" + parts.joined(separator: ", ") + ")" }
        s += "\n  links: \(links.count)"
        for h in links.keys.sorted() {
            let peer = links[h] ?? ""
            s += "\n    handle 0x" + hex4(h) + (peer.isEmpty ? "" : " peer \(peer)")
                + ": \(notificationsPerLink[h] ?? 0) ATT notifications"
                + ((indicationsPerLink[h] ?? 0) > 0 ? ", \(indicationsPerLink[h] ?? 0) indications" : "")
        }
        s += "\n  ATT notifications: \(attNotifications)"
        s += "\n  decode errors: \(decodeErrors)"
        for e in errorSamples { s += "\n    " + e }
        return s
    }

    public var json: JSONObject {
        var o = JSONObject()
        o.add("summary", true)
        o.add("packets", packets)
        var types = JSONObject()
        let perType = self.perType
        for t in H4PacketType.allCases { if let n = perType[t] { types.add(t.name, n) } }
        o.add("types", types)
        var links = [JSONObject]()
        for h in self.links.keys.sorted() {
            var l = JSONObject()
            l.add("handle", Int(h))
            if let p = self.links[h], !p.isEmpty { l.add("peer", p) }
            l.add("notifications", notificationsPerLink[h] ?? 0)
            l.add("indications", indicationsPerLink[h] ?? 0)
            links.append(l)
        }
        o.add("links", objects: links)
        o.add("att_notifications", attNotifications)
        o.add("decode_errors", decodeErrors)
        return o
    }

    private func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 4 - s.count) + s
    }
}
