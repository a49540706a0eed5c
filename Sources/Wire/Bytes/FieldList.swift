/// Decoded fields of a packet as labelled, indented text.
///
/// Each codec type describes its own fields (`FieldDescribing`) so that the knowledge of a
/// layout lives next to its decoder; the dissector only arranges the lines. Building a
/// `FieldList` is only done when someone asked to see fields, never on the host's data path.
///
/// The entries are kept in one UTF-8 buffer (`text`) as the lines `rtstack decode` prints:
/// `FieldList.indent(level)` spaces, the label, `: ` and the value (only the label when the
/// value is empty), a line feed. The text view prints the buffer as it is, and other views
/// find each label and value through `spans`. The dissector builds a list for every packet it
/// shows: one buffer, reused from packet to packet, costs no allocation where a `String` pair
/// per entry cost one or more each. Values can be written straight into the buffer
/// (`add(_:value:)`).
public struct FieldList: Sendable {
    public struct Entry: Sendable, Equatable {
        public var level: Int
        public var label: String
        public var value: String
    }

    /// Where one entry lies in `text`. Kept in four 32-bit numbers (the rest follows from the
    /// line layout), so that the list of a busy packet stays small.
    public struct Span: Sendable, Equatable {
        private let lineStart: Int32
        private let labelEnd: Int32
        /// Equal to `labelEnd` when the value is empty (the line has no `: ` then).
        private let valueEnd: Int32
        private let depth: Int32

        init(level: Int, lineStart: Int, labelEnd: Int, valueEnd: Int) {
            self.depth = Int32(truncatingIfNeeded: level)
            self.lineStart = Int32(truncatingIfNeeded: lineStart)
            self.labelEnd = Int32(truncatingIfNeeded: labelEnd)
            self.valueEnd = Int32(truncatingIfNeeded: valueEnd)
        }

        /// This span moved by `delta` bytes (an entry before it grew or shrank).
        func shifted(by delta: Int) -> Span {
            Span(level: level, lineStart: Int(lineStart) + delta, labelEnd: Int(labelEnd) + delta,
                 valueEnd: Int(valueEnd) + delta)
        }

        public var level: Int { Int(depth) }
        public var label: Range<Int> { Int(lineStart) + FieldList.indent(level)..<Int(labelEnd) }
        public var value: Range<Int> { valueEnd == labelEnd ? Int(labelEnd)..<Int(labelEnd) : Int(labelEnd) + 2..<Int(valueEnd) }
        /// The whole line, indent and line feed included.
        public var line: Range<Int> { Int(lineStart)..<Int(valueEnd) + 1 }
    }

    /// Spaces before a label at `level`: the decoder's field lines start eight columns in,
    /// two more per level.
    @inlinable public static func indent(_ level: Int) -> Int { 2 * (level + 4) }

    /// Every entry's line, in order.
    public private(set) var text: TextBuffer
    public private(set) var spans: [Span]
    private var level = 0

    public init() {
        text = TextBuffer()
        spans = []
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
        text.withUnsafeBufferPointer { text in
            spans.map { s in
                Entry(level: s.level, label: String(decoding: text[s.label], as: UTF8.self),
                      value: String(decoding: text[s.value], as: UTF8.self))
            }
        }
    }

    public mutating func add(_ label: String, _ value: String) {
        add(label) { $0.append(value) }
    }

    /// Adds an entry whose value `write` appends to the buffer, so that numbers and hex need
    /// no `String` of their own.
    public mutating func add(_ label: String, value write: (inout TextBuffer) -> Void) {
        let lineStart = text.count
        let labelEnd = text.appendLineStart(indent: FieldList.indent(level), label: label)
        write(&text)
        if text.count == labelEnd + 2 {
            // No value: the line is just the label, without the `: ` written before it.
            text.removeLast(2)
        }
        let valueEnd = text.count
        text.append(byte: 0x0A)
        spans.append(Span(level: level, lineStart: lineStart, labelEnd: labelEnd, valueEnd: valueEnd))
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

    /// Makes this list a copy of `other`, reusing this list's memory: one copy of the text
    /// and of the spans (a decoder that memoizes a packet's fields replays them this way).
    public mutating func replaceContents(with other: FieldList) {
        text.removeAll()
        other.text.withUnsafeBufferPointer { text.append(bytes: $0) }
        spans.removeAll(keepingCapacity: true)
        spans.append(contentsOf: other.spans)
        level = other.level
    }

    /// `replaceContents(with:)`, with the value of entry `index` written anew by `write` (a
    /// memoized packet whose one varying field, e.g. an advertising report's RSSI, differs).
    public mutating func replaceContents(with other: FieldList, rewritingValueOf index: Int,
                                         _ write: (inout TextBuffer) -> Void) {
        guard other.spans.indices.contains(index) else {
            replaceContents(with: other)
            return
        }
        let s = other.spans[index]
        let labelEnd = s.label.upperBound
        let oldValueEnd = s.value.isEmpty ? labelEnd : s.value.upperBound
        text.removeAll()
        other.text.withUnsafeBufferPointer { t in
            text.append(bytes: UnsafeBufferPointer(rebasing: t[0..<labelEnd]))
            text.append(": ")
            write(&text)
            var newValueEnd = text.count
            if newValueEnd == labelEnd + 2 {
                text.removeLast(2)
                newValueEnd = labelEnd
            }
            text.append(bytes: UnsafeBufferPointer(rebasing: t[oldValueEnd..<t.count]))
            spans.removeAll(keepingCapacity: true)
            spans.append(contentsOf: other.spans[..<index])
            spans.append(Span(level: s.level, lineStart: s.line.lowerBound, labelEnd: labelEnd, valueEnd: newValueEnd))
            let delta = newValueEnd - oldValueEnd
            for later in other.spans[(index + 1)...] { spans.append(later.shifted(by: delta)) }
        }
        level = other.level
    }

    /// Appends another list one level below the current one.
    public mutating func append(_ other: FieldList) {
        let base = level
        for e in other.entries {
            level = base + e.level
            add(e.label, e.value)
        }
        level = base
    }

    public func value(of label: String) -> String? {
        var label = label
        return label.withUTF8 { wanted in
            text.withUnsafeBufferPointer { text in
                for s in spans where text[s.label].elementsEqual(wanted) {
                    return String(decoding: text[s.value], as: UTF8.self)
                }
                return nil
            }
        }
    }
}

extension TextBuffer {
    /// `indent` spaces, `label` and `: `, written in one piece (a field line's start: three
    /// appends cost more than the bytes); returns where the label ends.
    mutating func appendLineStart(indent: Int, label: String) -> Int {
        if let end = label.utf8.withContiguousStorageIfAvailable({ appendLineStart(indent: indent, label: $0) }) {
            return end
        }
        var label = label
        return label.withUTF8 { appendLineStart(indent: indent, label: $0) }
    }

    @inline(__always)
    private mutating func appendLineStart(indent: Int, label: UnsafeBufferPointer<UInt8>) -> Int {
        let n = indent + label.count + 2
        let to = reserve(n)
        to.update(repeating: 0x20, count: indent)
        if let from = label.baseAddress { TextBuffer.copy(from: from, to: to + indent, count: label.count) }
        to[n - 2] = 0x3A
        to[n - 1] = 0x20
        used += n
        return used - 2
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
    /// `appendSummary(to:)` and `describeFields(into:)` in one call, for a decoder that shows
    /// both: a type can then look at its content once for the two.
    func describe(summary: inout TextBuffer, fields: inout FieldList)
}

extension FieldDescribing {
    public func appendSummary(to text: inout TextBuffer) {
        text.append(summary)
    }

    public func describe(summary: inout TextBuffer, fields: inout FieldList) {
        appendSummary(to: &summary)
        describeFields(into: &fields)
    }
}
