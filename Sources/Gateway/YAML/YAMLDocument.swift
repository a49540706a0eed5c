import CYAML

/// Loads YAML text with libyaml's document loader into `YAMLNode`s. Only the first document of
/// a stream is used; an empty text is an empty mapping. Aliases are expanded, with a bound on
/// the nodes produced, so that a "billion laughs" text is an error rather than a lost board.
public enum YAMLDocument {
    /// Most nodes an expanded document may have.
    public static let nodeLimit = 100_000
    /// Deepest nesting accepted.
    public static let depthLimit = 64

    public static func parse(_ text: String) throws(YAMLError) -> YAMLNode {
        var bytes = Array(text.utf8)
        if bytes.contains(0) { throw YAMLError(mark: nil, message: "the text contains a NUL character") }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw YAMLError(mark: nil, message: "libyaml could not start (out of memory)") }
        defer { yaml_parser_delete(&parser) }
        var document = yaml_document_t()
        let loaded = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return yaml_parser_load(&parser, &document)
        }
        guard loaded == 1 else { throw error(of: parser) }
        defer { yaml_document_delete(&document) }
        guard let root = yaml_document_get_root_node(&document) else {
            return .mapping([], YAMLMark(line: 1, column: 1))
        }
        var budget = nodeLimit
        return try convert(root, in: &document, depth: 0, budget: &budget)
    }

    private static func mark(_ m: yaml_mark_t) -> YAMLMark {
        YAMLMark(line: Int(m.line) + 1, column: Int(m.column) + 1)
    }

    private static func error(of parser: yaml_parser_t) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "not valid YAML"
        let context = parser.context.map { String(cString: $0) + ": " } ?? ""
        return YAMLError(mark: mark(parser.problem_mark), message: context + problem)
    }

    private static func convert(_ node: UnsafeMutablePointer<yaml_node_t>, in document: inout yaml_document_t,
                                depth: Int, budget: inout Int) throws(YAMLError) -> YAMLNode {
        let at = mark(node.pointee.start_mark)
        budget -= 1
        if budget < 0 { throw YAMLError(mark: at, message: "more than \(nodeLimit) nodes (aliases expanding without end?)") }
        if depth > depthLimit { throw YAMLError(mark: at, message: "nested deeper than \(depthLimit) levels") }
        switch node.pointee.type {
        case YAML_SCALAR_NODE:
            let s = node.pointee.data.scalar
            let text = s.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: s.length), as: UTF8.self) } ?? ""
            return .scalar(text, quoted: s.style != YAML_PLAIN_SCALAR_STYLE && s.style != YAML_ANY_SCALAR_STYLE, at)
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            var item = node.pointee.data.sequence.items.start
            while let i = item, i != node.pointee.data.sequence.items.top {
                guard let child = yaml_document_get_node(&document, i.pointee) else { break }
                items.append(try convert(child, in: &document, depth: depth + 1, budget: &budget))
                item = i + 1
            }
            return .sequence(items, at)
        case YAML_MAPPING_NODE:
            var pairs: [YAMLPair] = []
            var pair = node.pointee.data.mapping.pairs.start
            while let p = pair, p != node.pointee.data.mapping.pairs.top {
                guard let k = yaml_document_get_node(&document, p.pointee.key),
                      let v = yaml_document_get_node(&document, p.pointee.value) else { break }
                pairs.append(YAMLPair(key: try convert(k, in: &document, depth: depth + 1, budget: &budget),
                                      value: try convert(v, in: &document, depth: depth + 1, budget: &budget)))
                pair = p + 1
            }
            return .mapping(pairs, at)
        default:
            return .scalar("", quoted: false, at)
        }
    }
}
