import Foundation
import Testing
@testable import RTStackCLI
import TestSupport

/// Each command's usage line names exactly the options its table declares, and README.md shows
/// every usage line as it is: the synopses come from the command table and cannot drift from
/// it. `[ADAPTER OPTIONS]` stands for the options every adapter command takes (listed once in
/// README.md's paragraph on them), `[SETTINGS]` for the gateway's configuration settings.
@Suite struct CommandSynopsisTests {
    static let placeholders: [String: Set<String>] = [
        "[ADAPTER OPTIONS]": Set(AdapterOptions.specs.map(\.name)),
        "[SETTINGS]": Set(GatewayOptions.specs.map(\.name)),
    ]

    static func optionNames(_ text: String) -> Set<String> {
        Set(text.matches(of: /--([a-z][a-z0-9-]*)/).map { String($0.output.1) })
    }

    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    /// README.md's synopses: indented code lines that start with `rtstack` and have an optional
    /// part, joined with their more deeply indented continuation lines, comments (`  # …`) cut.
    static func readmeSynopses() throws -> [String] {
        let text = try String(contentsOf: SharedCaptures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func code(_ line: String) -> String {
            let body = line.range(of: "  #").map { String(line[..<$0.lowerBound]) } ?? line
            return body.trimmingCharacters(in: .whitespaces)
        }
        var synopses: [String] = []
        var i = 0
        while i < lines.count {
            defer { i += 1 }
            guard lines[i].hasPrefix("    rtstack ") else { continue }
            var parts = [code(lines[i])]
            while i + 1 < lines.count, lines[i + 1].hasPrefix("     "), !lines[i + 1].trimmingCharacters(in: .whitespaces).hasPrefix("rtstack") {
                i += 1
                parts.append(code(lines[i]))
            }
            let synopsis = normalized(parts.joined(separator: " "))
            if synopsis.contains("[") { synopses.append(synopsis) }
        }
        return synopses
    }

    @Test(arguments: RTStackCLI.commands.map(\.spec.name))
    func aCommandsUsageNamesExactlyTheOptionsItsTableDeclares(_ name: String) throws {
        let spec = try #require(RTStackCLI.commands.first { $0.spec.name == name }?.spec)
        var named = Self.optionNames(spec.usage)
        for (placeholder, options) in Self.placeholders where spec.usage.contains(placeholder) { named.formUnion(options) }
        let declared = Set(spec.options.map(\.name))
        #expect(declared.subtracting(named).sorted() == [], "taken by '\(name)' but missing from its usage line")
        #expect(named.subtracting(declared).sorted() == [], "in the usage line of '\(name)' but not taken by it")
    }

    @Test func theReadmeShowsEveryCommandsUsageLineAsItIs() throws {
        let synopses = try Self.readmeSynopses()
        for (spec, _) in RTStackCLI.commands {
            #expect(synopses.contains(Self.normalized(spec.usage)), "README.md lacks the synopsis of '\(spec.name)': \(spec.usage)")
        }
        let usages = Set(RTStackCLI.commands.map { Self.normalized($0.spec.usage) })
        for s in synopses {
            #expect(usages.contains(s), "README.md shows a synopsis no command has (has its usage line changed?): \(s)")
        }
    }

    @Test func theReadmeListsExactlyTheAdapterOptions() throws {
        let text = try String(contentsOf: SharedCaptures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let paragraphs = text.components(separatedBy: "\n\n")
        let paragraph = try #require(paragraphs.first { $0.hasPrefix("`[ADAPTER OPTIONS]`") },
                                     "README.md has no paragraph starting with `[ADAPTER OPTIONS]`")
        let listed = Self.optionNames(paragraph)
        let declared = Set(AdapterOptions.specs.map(\.name))
        #expect(declared.subtracting(listed).sorted() == [], "adapter options the README's paragraph leaves out")
        #expect(listed.subtracting(declared).sorted() == [], "options the README's paragraph names that are not adapter options")
    }
}
