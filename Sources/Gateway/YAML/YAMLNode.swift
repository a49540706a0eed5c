/// Where a node starts in the text, 1-based, for errors that name the line.
public struct YAMLMark: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public var description: String { "line \(line), column \(column)" }
}

/// One node of a YAML document as libyaml loaded it: scalars keep their text and whether they
/// were quoted (a quoted `"123"` is text, a plain `123` a number), collections keep their
/// order, and every node knows its line.
public indirect enum YAMLNode: Sendable, Hashable {
    case scalar(String, quoted: Bool, YAMLMark)
    case sequence([YAMLNode], YAMLMark)
    case mapping([YAMLPair], YAMLMark)

    public var mark: YAMLMark {
        switch self {
        case .scalar(_, _, let m), .sequence(_, let m), .mapping(_, let m): return m
        }
    }

    /// "a string", "a list", "a mapping", for errors.
    public var kindName: String {
        switch self {
        case .scalar: return "a value"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    public var scalarText: String? {
        if case .scalar(let s, _, _) = self { return s } else { return nil }
    }

    /// Plain `~`, `null`, `Null`, `NULL` or an empty plain scalar (YAML 1.1/1.2 core schema).
    public var isNull: Bool {
        if case .scalar(let s, false, _) = self { return ["", "~", "null", "Null", "NULL"].contains(s) }
        return false
    }
}

public struct YAMLPair: Sendable, Hashable {
    public var key: YAMLNode
    public var value: YAMLNode
    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// Why a text is not YAML, with the place libyaml stopped at.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var mark: YAMLMark?
    public var message: String

    public init(mark: YAMLMark?, message: String) {
        self.mark = mark
        self.message = message
    }

    public var description: String { (mark.map { "line \($0.line): " } ?? "") + message }
}
