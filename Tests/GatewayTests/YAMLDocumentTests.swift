import Testing
@testable import Gateway

@Suite struct YAMLDocumentTests {
    @Test func loadsMappingsListsAndScalarsWithTheirLines() throws {
        let doc = try YAMLDocument.parse("""
            gateway:
              id: garage
            adapters: [hci0, "tcp:127.0.0.1:9000"]
            count: 3
            quoted: "3"
            """)
        guard case .mapping(let top, let m) = doc else { Issue.record("not a mapping"); return }
        #expect(m == YAMLMark(line: 1, column: 1))
        #expect(top.map(\.key.scalarText) == ["gateway", "adapters", "count", "quoted"])
        #expect(top[0].value.mark.line == 2)
        guard case .sequence(let adapters, _) = top[1].value else { Issue.record("not a list"); return }
        #expect(adapters.map(\.scalarText) == ["hci0", "tcp:127.0.0.1:9000"])
        #expect(adapters[1] == .scalar("tcp:127.0.0.1:9000", quoted: true, YAMLMark(line: 3, column: 18)))
        #expect(top[2].value == .scalar("3", quoted: false, YAMLMark(line: 4, column: 8)))
        #expect(top[3].value == .scalar("3", quoted: true, YAMLMark(line: 5, column: 9)))
    }

    @Test func jsonIsYAMLToo() throws {
        // Command payloads are JSON objects, loaded by the same parser.
        let doc = try YAMLDocument.parse(#"{"id": "r1", "value": "0100", "response": true}"#)
        guard case .mapping(let pairs, _) = doc else { Issue.record("not a mapping"); return }
        #expect(pairs.map(\.key.scalarText) == ["id", "value", "response"])
        #expect(pairs[2].value == .scalar("true", quoted: false, YAMLMark(line: 1, column: 43)))
    }

    @Test func errorsNameTheLine() {
        #expect(throws: YAMLError.self) { try YAMLDocument.parse("a: [1, 2\nb: 3\n") }
        do {
            _ = try YAMLDocument.parse("a: 1\nb: [x\n  c: d: e\n")
        } catch {
            #expect(error.mark != nil)
            #expect(error.description.hasPrefix("line "))
        }
        do {
            _ = try YAMLDocument.parse("a: 1\n\tb: 2\n")
            Issue.record("a tab indent parsed")
        } catch {
            #expect(error.mark?.line == 2, "\(error)")
        }
    }

    @Test func emptyAndNull() throws {
        #expect(try YAMLDocument.parse("") == .mapping([], YAMLMark(line: 1, column: 1)))
        guard case .mapping(let p, _) = try YAMLDocument.parse("a: ~\nb:\nc: null\nd: 'null'\n") else { return }
        #expect(p.map(\.value.isNull) == [true, true, true, false])
    }

    @Test func aliasBombsAreBounded() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...8 { text += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
        #expect(throws: YAMLError.self) { try YAMLDocument.parse(text) }
        do { _ = try YAMLDocument.parse(text) } catch { #expect(error.message.contains("more than 100000 nodes")) }
        // Small aliases are fine.
        #expect((try? YAMLDocument.parse("a: &x [1, 2]\nb: *x\n")) != nil)
    }

    @Test func deepNestingIsBounded() {
        let text = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: YAMLError.self) { try YAMLDocument.parse(text) }
    }
}
