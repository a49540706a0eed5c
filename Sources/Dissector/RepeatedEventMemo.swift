import Glibc
import Wire

/// Decodings of advertising report events, kept by their bytes: an advertiser repeats the
/// same report many times a second, only its RSSI moving, and describing a report's AD
/// structures cost most of an advertising-heavy capture's time. 2,565 reports of
/// two-links-envsensing-android.btsnoop are 107 distinct events, 10 apart from the RSSI.
///
/// An event with one report is kept by its bytes without the RSSI octet; a hit replays the
/// headline and the fields with one copy each and writes the RSSI where it goes (in the
/// summary, and the value of the RSSI field). Events with several reports are kept whole.
///
/// Bounded (it starts over when full), and it steps aside when reports do not repeat: if
/// fewer than one lookup in eight hit over a window, it neither looks up nor stores for a
/// while (longer each time), so a flood of reports that never repeat pays almost nothing.
struct RepeatedEventMemo {
    struct Entry {
        var name: String
        var code: String
        var summary: TextBuffer
        /// Where the RSSI text (`-60 dBm`) lies in `summary`, for single-report events.
        var summaryRSSI: Range<Int>?
        var fields: FieldList
        /// The entry of `fields` whose value is the RSSI, for single-report events.
        var rssiField: Int?
        var rssi: Int8
        var errors: [String]
        var peer: DeviceAddress?
        /// `DissectedPacket.decodingID` of the packets that replay this entry.
        var id: Int
    }

    /// An event's bytes as a key, leaving out the RSSI octet when there is one to leave out:
    /// hashed in one or two calls and compared with `memcmp`.
    struct Key: Hashable {
        let bytes: ArraySlice<UInt8>
        /// Offset of the octet left out, from `bytes.startIndex`.
        let skip: Int?

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { raw in
                if let skip {
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<skip]))
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[(skip + 1)...]))
                } else {
                    hasher.combine(bytes: raw)
                }
            }
        }

        static func == (l: Key, r: Key) -> Bool {
            guard l.bytes.count == r.bytes.count, l.skip == r.skip else { return false }
            return l.bytes.withUnsafeBytes { a in
                r.bytes.withUnsafeBytes { b in
                    guard let skip = l.skip else { return memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
                    return memcmp(a.baseAddress!, b.baseAddress!, skip) == 0
                        && memcmp(a.baseAddress! + skip + 1, b.baseAddress! + skip + 1, a.count - skip - 1) == 0
                }
            }
        }
    }

    static let capacity = 4096
    static let window = 2048

    private var entries: [Key: Entry] = [:]
    private var lookups = 0
    private var hits = 0
    private var pausedWindows = 0
    /// Windows to sit out after the next window that does not pay; doubles each time.
    private var pause = 4
    private var nextID = 0

    /// Whether `bytes` (an HCI event) is one whose decoding depends on its bytes alone: the LE
    /// Advertising Report and LE Extended Advertising Report subevents.
    @inline(__always)
    static func applies(to bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 4 else { return false }
        let b = bytes.startIndex
        return bytes[b] == 0x3E && (bytes[b + 2] == 0x02 || bytes[b + 2] == 0x0D)
    }

    /// Offset of the RSSI octet in an event with one report (Vol 4, Part E, §7.7.65.2: the last
    /// octet; §7.7.65.13: after Event_Type, Address_Type, Address, the PHYs, SID and
    /// TX_Power), nil for several reports.
    static func rssiOffset(_ bytes: ArraySlice<UInt8>) -> Int? {
        let b = bytes.startIndex
        guard bytes[b + 3] == 1 else { return nil }
        if bytes[b + 2] == 0x02 { return bytes.count >= 13 ? bytes.count - 1 : nil }
        return bytes.count >= 28 ? 17 : nil
    }

    /// Whether to look up and store now, counting the window.
    private mutating func active() -> Bool {
        lookups &+= 1
        if lookups < Self.window { return pausedWindows == 0 }
        // End of a window: judge it, then start the next.
        if pausedWindows > 0 {
            pausedWindows -= 1
        } else if hits * 8 < Self.window {
            pausedWindows = pause
            pause = min(pause * 2, 256)
            entries.removeAll()
        } else {
            pause = 4
        }
        lookups = 0
        hits = 0
        return pausedWindows == 0
    }

    /// Fills `p` from the memo; false when these bytes were not seen (or the memo is resting).
    mutating func replay(into p: inout DissectedPacket) -> Bool {
        guard active() else { return false }
        let skip = Self.rssiOffset(p.bytes)
        guard let e = entries[Key(bytes: p.bytes, skip: skip)] else { return false }
        hits &+= 1
        p.name = e.name
        p.code = e.code
        let rssi = skip.map { Int8(bitPattern: p.bytes[p.bytes.startIndex + $0]) } ?? e.rssi
        if rssi == e.rssi {
            p.summaryText.append(e.summary)
            p.fields.replaceContents(with: e.fields)
        } else if let range = e.summaryRSSI, let field = e.rssiField {
            e.summary.withUnsafeBufferPointer { s in
                p.summaryText.append(bytes: UnsafeBufferPointer(rebasing: s[0..<range.lowerBound]))
                p.summaryText.appendRSSI(rssi, short: true)
                p.summaryText.append(bytes: UnsafeBufferPointer(rebasing: s[range.upperBound...]))
            }
            p.fields.replaceContents(with: e.fields, rewritingValueOf: field) { $0.appendRSSI(rssi, short: false) }
            p.decodingVariableField = field
        } else {
            return false
        }
        if !e.errors.isEmpty { p.errors.append(contentsOf: e.errors) }
        p.peer = e.peer
        p.decodingID = e.id
        if e.rssiField != nil { p.decodingVariableField = e.rssiField }
        return true
    }

    /// Keeps what `p` was decoded to (copies, so that `p`'s buffers stay its own).
    mutating func remember(_ p: inout DissectedPacket) {
        guard pausedWindows == 0 else { return }
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        var summary = TextBuffer()
        summary.append(p.summaryText)
        var fields = FieldList()
        fields.replaceContents(with: p.fields)
        var skip = Self.rssiOffset(p.bytes)
        let rssi = Int8(bitPattern: p.bytes[p.bytes.startIndex + (skip ?? (p.bytes.count - 1))])
        // Where the RSSI shows; an event that does not show it where expected is kept whole.
        var summaryRSSI: Range<Int>?
        var rssiField: Int?
        if skip != nil {
            summaryRSSI = Self.rssiText(in: summary, rssi)
            rssiField = Self.rssiField(in: fields)
            if summaryRSSI == nil || rssiField == nil { skip = nil }
        }
        nextID &+= 1
        p.decodingID = nextID
        p.decodingVariableField = skip == nil ? nil : rssiField
        entries[Key(bytes: p.bytes, skip: skip)] = Entry(
            name: p.name, code: p.code, summary: summary, summaryRSSI: skip == nil ? nil : summaryRSSI,
            fields: fields, rssiField: skip == nil ? nil : rssiField, rssi: rssi, errors: p.errors, peer: p.peer,
            id: nextID)
    }

    /// The range of ` -60 dBm data ` minus its spaces and ` data ` in the summary.
    private static func rssiText(in summary: TextBuffer, _ rssi: Int8) -> Range<Int>? {
        var needle = TextBuffer()
        needle.append(byte: 0x20)
        needle.appendRSSI(rssi, short: true)
        needle.append(" data ")
        return summary.withUnsafeBufferPointer { s in
            needle.withUnsafeBufferPointer { n -> Range<Int>? in
                guard s.count >= n.count else { return nil }
                for start in 0...(s.count - n.count) where memcmp(s.baseAddress! + start, n.baseAddress!, n.count) == 0 {
                    return (start + 1)..<(start + n.count - 6)
                }
                return nil
            }
        }
    }

    /// The index of the entry labelled `RSSI`.
    private static func rssiField(in fields: FieldList) -> Int? {
        let label: StaticString = "RSSI"
        return fields.text.withUnsafeBufferPointer { t in
            fields.spans.firstIndex { s in
                s.label.count == label.utf8CodeUnitCount
                    && memcmp(t.baseAddress! + s.label.lowerBound, label.utf8Start, label.utf8CodeUnitCount) == 0
            }
        }
    }
}
