import Foundation
import Testing

/// Every Swift block of the DocC catalogue is compiled code: its lines, each trimmed and
/// without the blank ones, appear in this order, one after the other, in a Swift file of the
/// repository (`Sources/`, `Examples/` or `Tests/`, which CI builds; the articles' own examples
/// are in `Tests/MVVMServerTests/DocumentationExamples`). A block that is edited in an article
/// alone, or whose code changed in the repository, fails here.
@Suite("The DocC catalogue's Swift blocks are compiled code")
struct DocumentationCodeTests {
    static let catalogue = Repository.root.appending(path: "Sources/MVVMServer/MVVMServer.docc")

    /// A fenced block of an article: its language and its lines.
    struct Block {
        var language: String
        var lines: [Substring]
        var line: Int
    }

    /// The catalogue's articles, by file name.
    static func articles() -> [String] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: catalogue.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted()
    }

    /// The fenced code blocks of an article, in order.
    static func blocks(of article: String) throws -> [Block] {
        let text = try String(contentsOf: catalogue.appending(path: article), encoding: .utf8)
        var blocks: [Block] = []
        var current: Block?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = Block(language: String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), lines: [], line: index + 1)
                }
            } else {
                current?.lines.append(line)
            }
        }
        return blocks
    }

    /// Lines trimmed of leading and trailing whitespace, blank ones left out.
    static func significant(_ lines: some Sequence<Substring>) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// The significant lines of every Swift file under `Sources/`, `Examples/` and `Tests/`,
    /// without `.build` folders (nor any other hidden folder), by path.
    static let swiftFiles: [(path: String, lines: [String])] = {
        var files: [(String, [String])] = []
        for folder in ["Sources", "Examples", "Tests"] {
            let base = Repository.root.appending(path: folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else {
                continue
            }
            for case let url as URL in walker where url.pathExtension == "swift" {
                guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
                files.append((url.path, significant(text.split(separator: "\n", omittingEmptySubsequences: false))))
            }
        }
        return files
    }()

    /// Whether `block` is a contiguous run of `lines`.
    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        guard let first = block.first, lines.count >= block.count else { return false }
        for start in lines.indices where lines[start] == first && start + block.count <= lines.count {
            if lines[start..<(start + block.count)].elementsEqual(block) { return true }
        }
        return false
    }

    @Test("The catalogue has articles, and they show Swift code")
    func catalogueIsFound() throws {
        let articles = Self.articles()
        #expect(articles.count >= 10, "articles found in \(Self.catalogue.path): \(articles)")
        let swiftBlocks = try articles.flatMap { try Self.blocks(of: $0) }.filter { $0.language == "swift" }
        #expect(swiftBlocks.count >= 20)
        #expect(Self.swiftFiles.count > 100)
    }

    @Test("Every Swift block of the article is found in a Swift file of the repository", arguments: articles())
    func swiftBlocksAreCompiled(article: String) throws {
        for block in try Self.blocks(of: article) where block.language == "swift" {
            let lines = Self.significant(block.lines)
            guard !lines.isEmpty else {
                Issue.record("\(article), line \(block.line): an empty Swift block")
                continue
            }
            if !Self.swiftFiles.contains(where: { Self.contains($0.lines, lines) }) {
                Issue.record(
                    "\(article), line \(block.line): the Swift block starting \"\(lines[0])\" is not in any Swift file under Sources/, Examples/ or Tests/"
                )
            }
        }
    }

    @Test("Every fenced block of the article names its language (swift for Swift, sh for commands)", arguments: articles())
    func blocksNameTheirLanguage(article: String) throws {
        for block in try Self.blocks(of: article) where block.language.isEmpty {
            let first = Self.significant(block.lines).first ?? ""
            Issue.record("\(article), line \(block.line): the block starting \"\(first)\" names no language")
        }
    }
}
