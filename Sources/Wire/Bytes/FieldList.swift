/// Decoded fields of a packet as labelled, indented text.
///
/// Each codec type describes its own fields (`FieldDescribing`) so that the knowledge of a
/// layout lives next to its decoder; the dissector only arranges the lines. Building a
/// `FieldList` is only done when someone asked to see fields, never on the host's data path.
public struct FieldList: Sendable {
    public struct Entry: Sendable, Equatable {
        public var level: Int
        public var label: String
        public var value: String
    }

    public private(set) var entries: [Entry] = []
    private var level = 0

    public init() {}

    public mutating func add(_ label: String, _ value: String) {
        entries.append(Entry(level: level, label: label, value: value))
    }

    /// Fields added inside `body` are shown one level deeper (a report inside an event, an AD
    /// structure inside a report).
    public mutating func nested(_ label: String, _ value: String = "", _ body: (inout FieldList) -> Void) {
        add(label, value)
        level += 1
        body(&self)
        level -= 1
    }

    /// Appends another list one level below the current one.
    public mutating func append(_ other: FieldList) {
        for e in other.entries {
            entries.append(Entry(level: level + e.level, label: e.label, value: e.value))
        }
    }

    public func value(of label: String) -> String? {
        entries.first { $0.label == label }?.value
    }
}

/// A decoded value that can list its fields for `rtstack decode` and `--trace`.
public protocol FieldDescribing {
    /// One short phrase for the packet's headline, e.g. `"handle 0x0040 value 3 bytes"`.
    var summary: String { get }
    func describeFields(into fields: inout FieldList)
}
