/// HCI_Number_Of_Completed_Packets (Vol 4, Part E, §7.7.19): ACL credits coming back, per
/// connection. The most frequent event of a busy link, so the entries are a view on the
/// event's bytes (`HCIEventArray`), never an array.
public struct NumberOfCompletedPacketsEvent: WireCodable, FieldDescribing, Hashable {
    /// One Connection_Handle[i] / Num_Completed_Packets[i] pair.
    public struct Entry: WireCodable, Hashable {
        public var connectionHandle: UInt16
        public var numCompletedPackets: UInt16

        public init(connectionHandle: UInt16, numCompletedPackets: UInt16) {
            self.connectionHandle = connectionHandle
            self.numCompletedPackets = numCompletedPackets
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            connectionHandle = try r.eventConnectionHandle()
            numCompletedPackets = try r.u16("Num_Completed_Packets")
        }

        public func encode(into w: inout ByteWriter) {
            w.u16(connectionHandle)
            w.u16(numCompletedPackets)
        }
    }

    public var entries: HCIEventArray<Entry>

    /// Num_Handles.
    public var numHandles: Int { entries.count }

    public init(entries: [Entry]) {
        self.entries = HCIEventArray(entries)
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        let n = try r.u8("Num_Handles")
        if r.count < Int(n) * 4 {
            throw WireError.malformed("Num_Handles \(n) needs \(Int(n) * 4) bytes, \(r.count) present")
        }
        // Any four bytes are a valid entry: the length check is the whole validation.
        entries = try HCIEventArray(count: Int(n), fixedSize: 4, from: &r)
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(UInt8(truncatingIfNeeded: entries.count))
        entries.encode(into: &w)
    }

    public var summary: String {
        var t = TextBuffer()
        appendSummary(to: &t)
        return t.string
    }

    public func appendSummary(to t: inout TextBuffer) {
        if entries.isEmpty {
            t.append("no handles")
            return
        }
        for (i, e) in entries.enumerated() {
            if i > 0 { t.append(", ") }
            t.append("handle ")
            t.appendHexNumber(e.connectionHandle, width: 4)
            t.append(": ")
            t.appendDecimal(Int(e.numCompletedPackets))
        }
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Num handles") { $0.appendDecimal(numHandles) }
        for e in entries {
            f.nested("Connection handle", value: { $0.appendHexNumber(e.connectionHandle, width: 4) }) { f in
                f.add("Num completed packets") { $0.appendDecimal(Int(e.numCompletedPackets)) }
            }
        }
    }
}
