import JSON
import Wire

/// Totals for the end-of-decode summary; also what the tests compare with tshark's counts.
public struct DecodeStatistics: Sendable {
    public var packets = 0
    /// Packets per type, by raw value: a dictionary update per packet cost a hash each time.
    private var typeCounts = [Int](repeating: 0, count: 8)
    /// Connection handles seen in ACL data or connection events, with the peer when known.
    public var links: [LinkID: String] = [:]
    /// The transport of each link whose opening event, or signaling, the capture showed.
    public var transports: [LinkID: LinkTransport] = [:]
    /// ATT PDUs on every bearer, and those of them on BR/EDR channels (PSM 0x001F).
    public var attPDUs = 0
    public var brEdrATTPDUs = 0
    public var notificationsPerLink: [LinkID: Int] = [:]
    public var indicationsPerLink: [LinkID: Int] = [:]
    /// ATT PDUs on EATT channels (they are counted in the totals above too).
    public var eattPDUs = 0
    /// Linux monitor frames without an HCI packet (New Index, System Note …).
    public var monitorNotes = 0
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
        if let h = p.connectionHandle, p.type == .acl {
            let link = LinkID(adapter: p.adapterIndex, handle: h)
            if links[link] == nil { links[link] = "" }
        }
        if let att = p.att {
            attPDUs += 1
            if att.transport == .brEdr { brEdrATTPDUs += 1 }
        }
        if let att = p.att, let h = p.connectionHandle {
            if att.opcode == 0x1B { notificationsPerLink[LinkID(adapter: p.adapterIndex, handle: h), default: 0] += 1 }
            if att.opcode == 0x1D { indicationsPerLink[LinkID(adapter: p.adapterIndex, handle: h), default: 0] += 1 }
            if att.bearerIsEnhanced { eattPDUs += 1 }
        }
        if !p.errors.isEmpty { countErrors(p.errors, index: p.index) }
    }

    /// A monitor frame without an HCI packet: only its decode problems count here.
    public mutating func count(_ n: DissectedNote) {
        if !n.errors.isEmpty { countErrors(n.errors, index: n.index) }
    }

    private mutating func countErrors(_ errors: [String], index: Int) {
        decodeErrors += errors.count
        if errorSamples.count < 10 {
            for e in errors { errorSamples.append("#\(index): \(e)") }
        }
    }

    public var text: String {
        var s = "Summary: \(packets) packets"
        let order: [H4PacketType] = [.command, .event, .acl, .sco, .iso]
        let perType = self.perType
        let parts = order.compactMap { t in perType[t].map { "\($0) \(t.name)" } }
        if !parts.isEmpty { s += " (" + parts.joined(separator: ", ") + ")" }
        if monitorNotes > 0 { s += "\n  monitor records: \(monitorNotes)" }
        s += "\n  links: \(links.count)"
        for link in links.keys.sorted() {
            let peer = links[link] ?? ""
            s += "\n    " + (link.adapter.map { "hci\($0) " } ?? "") + "handle 0x" + hex4(link.handle)
                + (peer.isEmpty ? "" : " peer \(peer)")
                + (transports[link].map { " (\($0.name))" } ?? "")
                + ": \(notificationsPerLink[link] ?? 0) ATT notifications"
                + ((indicationsPerLink[link] ?? 0) > 0 ? ", \(indicationsPerLink[link] ?? 0) indications" : "")
        }
        s += "\n  ATT PDUs: \(attPDUs)"
        if brEdrATTPDUs > 0 { s += " (LE \(attPDUs - brEdrATTPDUs), BR/EDR \(brEdrATTPDUs))" }
        s += "\n  ATT notifications: \(attNotifications)"
        if eattPDUs > 0 { s += "\n  ATT PDUs on EATT channels: \(eattPDUs)" }
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
        for link in self.links.keys.sorted() {
            var l = JSONObject()
            if let a = link.adapter { l.add("adapter", Int(a)) }
            l.add("handle", Int(link.handle))
            if let p = self.links[link], !p.isEmpty { l.add("peer", p) }
            if let t = transports[link] { l.add("transport", t.jsonName) }
            l.add("notifications", notificationsPerLink[link] ?? 0)
            l.add("indications", indicationsPerLink[link] ?? 0)
            links.append(l)
        }
        o.add("links", objects: links)
        o.add("att_pdus", attPDUs)
        var perTransport = JSONObject()
        perTransport.add(LinkTransport.le.jsonName, attPDUs - brEdrATTPDUs)
        perTransport.add(LinkTransport.brEdr.jsonName, brEdrATTPDUs)
        o.add("att_pdus_per_transport", perTransport)
        o.add("att_notifications", attNotifications)
        if eattPDUs > 0 { o.add("eatt_pdus", eattPDUs) }
        if monitorNotes > 0 { o.add("monitor_records", monitorNotes) }
        o.add("decode_errors", decodeErrors)
        return o
    }

    private func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 4 - s.count) + s
    }
}

/// A connection in the statistics: its handle, and its adapter where the capture has several.
public struct LinkID: Hashable, Sendable, Comparable {
    public var adapter: UInt16?
    public var handle: UInt16

    public init(adapter: UInt16? = nil, handle: UInt16) {
        self.adapter = adapter
        self.handle = handle
    }

    public static func < (l: LinkID, r: LinkID) -> Bool {
        (l.adapter ?? 0, l.handle) < (r.adapter ?? 0, r.handle)
    }
}
