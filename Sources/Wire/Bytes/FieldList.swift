/// Decoded fields of a packet as labelled, indented text.
///
/// Each codec type describes its own fields (`FieldDescribing`) so that the knowledge of a
/// layout lives next to its decoder; the dissector only arranges the lines. Building a
/// `FieldList` is only done when someone asked to see fields, never on the host's data path.
///
/// Labels and values are kept as UTF-8 in one buffer (`text`), with `spans` saying where each
/// entry lies: the dissector builds a list for every packet it shows, and one buffer costs a
/// couple of allocations per packet where a `String` pair per entry cost one or more each.
/// Values can be written straight into the buffer (`add(_:value:)`).
public struct FieldList: Sendable {
    public struct Entry: Sendable, Equatable {
        public var level: Int
        public var label: String
        public var value: String
    }

    /// Where one entry lies in `text`: the label is `labelStart..<valueStart`, the value
    /// `valueStart..<valueEnd`.
    public struct Span: Sendable, Equatable {
        public var level: Int
        public var labelStart: Int
        public var valueStart: Int
        public var valueEnd: Int

        @inlinable public var label: Range<Int> { labelStart..<valueStart }
        @inlinable public var value: Range<Int> { valueStart..<valueEnd }
    }

    /// Every label and value, back to back.
    public private(set) var text: TextBuffer
    public private(set) var spans: [Span]
    private var level = 0

    public init() {
        text = TextBuffer()
        spans = []
    }

    /// An empty list with room for a typical packet's fields, so that building it does not
    /// grow the buffers step by step.
    public init(reservingText textCapacity: Int, entries entryCapacity: Int) {
        text = TextBuffer(capacity: textCapacity)
        spans = []
        spans.reserveCapacity(entryCapacity)
    }

    /// Empties the list, keeping its memory for the next packet.
    public mutating func removeAll() {
        text.removeAll()
        spans.removeAll(keepingCapacity: true)
        level = 0
    }

    public var isEmpty: Bool { spans.isEmpty }
    public var count: Int { spans.count }

    /// The entries as strings (for tests and callers that want values; renderers use `spans`).
    public var entries: [Entry] {
        spans.map { s in
            Entry(level: s.level, label: String(decoding: text.bytes[s.label], as: UTF8.self),
                  value: String(decoding: text.bytes[s.value], as: UTF8.self))
        }
    }

    public mutating func add(_ label: String, _ value: String) {
        let labelStart = text.count
        text.append(label)
        let valueStart = text.count
        text.append(value)
        spans.append(Span(level: level, labelStart: labelStart, valueStart: valueStart, valueEnd: text.count))
    }

    /// Adds an entry whose value `write` appends to the buffer, so that numbers and hex need
    /// no `String` of their own.
    public mutating func add(_ label: String, value write: (inout TextBuffer) -> Void) {
        let labelStart = text.count
        text.append(label)
        let valueStart = text.count
        write(&text)
        spans.append(Span(level: level, labelStart: labelStart, valueStart: valueStart, valueEnd: text.count))
    }

    /// Fields added inside `body` are shown one level deeper (a report inside an event, an AD
    /// structure inside a report).
    public mutating func nested(_ label: String, _ value: String = "", _ body: (inout FieldList) -> Void) {
        add(label, value)
        level += 1
        body(&self)
        level -= 1
    }

    /// `nested(_:_:_:)` with a value written into the buffer.
    public mutating func nested(_ label: String, value write: (inout TextBuffer) -> Void,
                                _ body: (inout FieldList) -> Void) {
        add(label, value: write)
        level += 1
        body(&self)
        level -= 1
    }

    /// Appends another list one level below the current one.
    public mutating func append(_ other: FieldList) {
        let shift = text.count
        text.append(other.text)
        for s in other.spans {
            spans.append(Span(level: level + s.level, labelStart: s.labelStart + shift,
                              valueStart: s.valueStart + shift, valueEnd: s.valueEnd + shift))
        }
    }

    public func value(of label: String) -> String? {
        var label = label
        return label.withUTF8 { wanted in
            for s in spans where text.bytes[s.label].elementsEqual(wanted) {
                return String(decoding: text.bytes[s.value], as: UTF8.self)
            }
            return nil
        }
    }
}

/// A decoded value that can list its fields for `rtstack decode` and `--trace`.
public protocol FieldDescribing {
    /// One short phrase for the packet's headline, e.g. `"handle 0x0040 value 3 bytes"`.
    var summary: String { get }
    func describeFields(into fields: inout FieldList)
    /// `summary`, appended to `text`. Types the dissector meets on most packets write it
    /// directly (and derive `summary` from it); the others keep the default.
    func appendSummary(to text: inout TextBuffer)
}

extension FieldDescribing {
    public func appendSummary(to text: inout TextBuffer) {
        text.append(summary)
    }
}
