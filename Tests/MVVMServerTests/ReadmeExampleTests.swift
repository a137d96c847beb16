import Foundation
import Testing

/// The README shows the example package (`Examples/Counter`) in full; `scripts/test` builds and
/// tests that package. These tests keep the README's copies identical to its files.
@Suite("The README's example package")
struct ReadmeExampleTests {

    /// The README's fenced code blocks, in order.
    static func codeBlocks() throws -> [String] {
        let readme = try Repository.text("README.md")
        var blocks: [String] = []
        var current: [Substring]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append(lines.joined(separator: "\n") + "\n")
                    current = nil
                } else {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test(
        "Each file of the example that the README shows is shown exactly",
        arguments: [
            "Examples/Counter/Package.swift",
            "Examples/Counter/Sources/Counter/Counter.swift",
            "Examples/Counter/Tests/CounterTests/CounterTests.swift",
        ])
    func shownExactly(path: String) throws {
        let file = try Repository.text(path)
        #expect(try Self.codeBlocks().contains(file), "README.md does not show \(path) as it is")
    }
}
