import Foundation
import Testing
@testable import MVVMServer

extension Core {
    /// The navigation document is written directly; it must be the bytes Foundation's encoder
    /// gives for the same state (sorted keys, slashes unescaped).
    @Suite("The navigation document's bytes")
    struct NavigationJSONTests {
        static func foundationBytes(_ state: NavigationState) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(state), as: UTF8.self)
        }

        static func entry(_ key: String, _ presentation: Presentation, slots: [String: NavigationEntry] = [:]) -> NavigationEntry {
            NavigationEntry(scene: "scene \"\(key)\"", key: key, path: "/sessions/s/scenes/\(key)", presentation: presentation, slots: slots)
        }

        @Test("Empty, root only, a stack with a modal, and nested slots whose names sort by UTF-8 bytes")
        func sameAsFoundation() throws {
            var states: [NavigationState] = [NavigationState()]
            var root = NavigationState()
            root.stack = [Self.entry("films", .root)]
            root.version = 3
            states.append(root)
            var deep = root
            deep.stack.append(Self.entry("film/1", .push, slots: [
                "b": Self.entry("person/1", .embedded),
                "B": Self.entry("person/2", .embedded, slots: ["é": Self.entry("x\u{1}\n/é😀", .embedded)]),
                "a10": Self.entry("a10", .embedded), "a9": Self.entry("a9", .embedded), "_": Self.entry("u", .embedded),
            ]))
            deep.modal = Self.entry("alert", .modal)
            deep.version = UInt64.max
            states.append(deep)
            for state in states {
                #expect(String(decoding: state.jsonData, as: UTF8.self) == (try Self.foundationBytes(state)))
            }
        }
    }
}
