import Foundation
import MVVMSupport
import Testing

@testable import MVVMCore
@testable import MVVMJSON

extension Core {
    /// The members named by a `didUpdate`: found by walking two encoded outputs member by
    /// member (both in the encoder's key order), comparing the bytes of each value.
    @Suite("Output changes between two encodings")
    struct OutputChangesTests {
        private struct Output: Encodable {
            var title = "A New Hope"
            var episode = 4
            var note: String?
            var crawl: [String] = []
            // Keys whose UTF-8 order differs from a naive comparison of characters.
            // swift-format-ignore: AlwaysUseLowerCamelCase
            var Zeta = 0
            // swift-format-ignore: IdentifiersMustBeASCII
            var é = 0
            var _hidden = false
        }

        private func changes(_ old: Output, _ new: Output) throws -> [String] {
            OutputChanges.members(from: try JSONBytesEncoder.encodeMembers(old), to: try JSONBytesEncoder.encodeMembers(new))
        }

        @Test("Changed, added and removed members are named once each, in key order; equal ones are not")
        func addedRemovedAndChanged() throws {
            let old = Output()
            #expect(try changes(old, old) == [])

            var new = old
            new.episode = 5
            new.é = 1
            new._hidden = true
            #expect(try changes(old, new) == ["_hidden", "episode", "é"])

            var withNote = old
            withNote.note = "added"  // an optional member that was left out appears
            withNote.Zeta = 26
            #expect(try changes(old, withNote) == ["Zeta", "note"])
            #expect(try changes(withNote, old) == ["Zeta", "note"], "a member that disappears is named too")

            var everything = withNote
            everything.title = "The Empire Strikes Back"
            everything.crawl = ["It is a dark time"]
            #expect(try changes(old, everything) == ["Zeta", "crawl", "note", "title"])
        }

        @Test("Outputs that are not objects change as a whole")
        func notObjects() throws {
            let old = try JSONBytesEncoder.encodeMembers([1, 2])
            let new = try JSONBytesEncoder.encodeMembers([1, 3])
            #expect(OutputChanges.members(from: old, to: new) == ["output"])
        }

        @Test("Integers are written with every digit in order, as Foundation writes them")
        func integers() throws {
            let values: [Int64] = [0, 7, -7, 10, 42, -100, 1_234_567_890, .max, .min]
            for value in values {
                #expect(try JSONBytesEncoder.encode(value) == Array(JSONEncoder().encode(value)))
            }
            #expect(try JSONBytesEncoder.encode(UInt64.max) == Array("18446744073709551615".utf8))
        }
    }
}
