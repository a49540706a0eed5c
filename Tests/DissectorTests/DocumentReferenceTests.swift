import Foundation
import Testing
import TestSupport

/// The documents point at each other as `Docs/x.md`, `Docs/x.md, "Heading"` and Markdown links
/// `[…](x.md#anchor)`; every one must name a file that exists and a heading it has, so that a
/// renamed section or page is caught here rather than by a reader.
@Suite struct DocumentReferenceTests {
    static let root = SharedCaptures.packageRoot

    /// README.md, Docs/*.md, and the Swift sources' comments, which cite the docs too.
    static func documents() throws -> [(path: String, text: String)] {
        var paths = ["README.md"]
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)
        paths += docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
        if let sources = FileManager.default.enumerator(atPath: root.appendingPathComponent("Sources").path) {
            for case let p as String in sources where p.hasSuffix(".swift") { paths.append("Sources/" + p) }
        }
        return try paths.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// A Markdown file's headings, without the `#`s and code marks.
    static func headings(of path: String) -> [String]? {
        guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { return nil }
        var inFence = false
        var list: [String] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            list.append(line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: ""))
        }
        return list
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { c -> Character? in
            if c == " " { return "-" }
            return c.isLetter || c.isNumber || c == "-" || c == "_" ? c : nil
        })
    }

    /// `path` as the repository names it: from the root, else beside the citing file (a page of
    /// Docs/ citing `security.md`).
    static func resolve(_ path: String, from document: String) -> String? {
        let beside = (document as NSString).deletingLastPathComponent
        for candidate in [path, beside.isEmpty ? path : beside + "/" + path] {
            let standard = (candidate as NSString).standardizingPath
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(standard).path) { return standard }
        }
        return nil
    }

    @Test func everyCitedDocumentAndSectionExists() throws {
        var broken: [String] = []
        for (document, text) in try Self.documents() {
            // `Docs/x.md` with, optionally, `, "Heading"` (the quote may follow a line break).
            for m in text.matches(of: /((?:[A-Za-z0-9_.-]+\/)*[A-Za-z0-9_-]+\.md)(?:,\s*(?:\/\/\/\s*)?["“]([^"”]+)["”])?/) {
                let cited = String(m.output.1)
                // The sources also cite other projects' files (Eddystone's specification); only
                // Docs/ is checked there. `../` is beside the checkout, not in it.
                if document.hasPrefix("Sources/") && !cited.hasPrefix("Docs/") { continue }
                guard !cited.hasPrefix("../"), cited.contains("/") || document.hasPrefix("Docs/") else { continue }
                guard let file = Self.resolve(cited, from: document) else {
                    broken.append("\(document): \(cited) does not exist")
                    continue
                }
                guard let quoted = m.output.2 else { continue }
                // A quote broken over lines of a doc comment: the line break and `///` are a space.
                let section = String(quoted).replacing(/\s*\n\s*(\/\/\/)?\s*/, with: " ")
                let headings = Self.headings(of: file) ?? []
                if !headings.contains(where: { $0.hasPrefix(section) }) {
                    broken.append("\(document): \(file) has no section \"\(section)\"")
                }
            }
            // Markdown links to files of the repository, with or without an anchor (in Markdown
            // only: in Swift, `[UInt8](data)` is code).
            guard document.hasSuffix(".md") else { continue }
            for m in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(m.output.1)
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? document : Self.resolve(parts[0], from: document)
                guard let file else {
                    broken.append("\(document): link to \(parts[0]), which does not exist")
                    continue
                }
                if parts.count == 2, file.hasSuffix(".md"), !(Self.headings(of: file) ?? []).map(Self.anchor).contains(parts[1]) {
                    broken.append("\(document): \(file) has no heading with the anchor #\(parts[1])")
                }
            }
        }
        #expect(broken == [], "\(broken.joined(separator: "\n"))")
    }

    @Test func anAnchorIsTheHeadingAsGitHubSpellsIt() {
        #expect(Self.anchor("`--backend kernel`: sharing the adapter with the kernel") == "--backend-kernel-sharing-the-adapter-with-the-kernel")
        #expect(Self.anchor("Own address: resolvable private") == "own-address-resolvable-private")
    }
}
