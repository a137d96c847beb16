import Foundation
import MVVMSupport
import Testing

@testable import MVVMCore
@testable import MVVMJSON
@testable import MVVMServer

extension Internals {
    /// The navigation document is written directly; it must be the bytes Foundation's encoder
    /// gives for the same state with each entry's path (sorted keys, slashes unescaped).
    @Suite("The navigation document's bytes")
    struct NavigationJSONTests {
        /// An entry as the API serves it: the core's entry and its path.
        struct ServedEntry: Encodable {
            let key: String
            let path: String
            let presentation: Presentation
            let scene: String
            let slots: [String: ServedEntry]

            init(_ entry: NavigationEntry, prefix: String) {
                key = entry.key
                path = prefix + entry.key
                presentation = entry.presentation
                scene = entry.scene
                slots = entry.slots.mapValues { ServedEntry($0, prefix: prefix) }
            }
        }

        /// The navigation as the API serves it; `modal` written as `null` when absent.
        struct ServedState: Encodable {
            let modal: ServedEntry?
            let stack: [ServedEntry]
            let version: UInt64

            enum CodingKeys: String, CodingKey { case modal, stack, version }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(modal, forKey: .modal)
                try container.encode(stack, forKey: .stack)
                try container.encode(version, forKey: .version)
            }
        }

        static let prefix = "/sessions/s/scenes/"

        static func foundationBytes(_ state: NavigationState) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let served = ServedState(
                modal: state.modal.map { ServedEntry($0, prefix: prefix) }, stack: state.stack.map { ServedEntry($0, prefix: prefix) },
                version: state.version)
            return String(decoding: try encoder.encode(served), as: UTF8.self)
        }

        static func entry(_ key: String, _ presentation: Presentation, slots: [String: NavigationEntry] = [:]) -> NavigationEntry {
            NavigationEntry(scene: "scene \"\(key)\"", key: key, presentation: presentation, slots: slots)
        }

        @Test("Empty, root only, a stack with a modal, and nested slots whose names sort by UTF-8 bytes")
        func sameAsFoundation() throws {
            var states: [NavigationState] = [NavigationState()]
            var root = NavigationState()
            root.stack = [Self.entry("films", .root)]
            root.version = 3
            states.append(root)
            var deep = root
            deep.stack.append(
                Self.entry(
                    "film/1", .push,
                    slots: [
                        "b": Self.entry("person/1", .embedded),
                        "B": Self.entry("person/2", .embedded, slots: ["é": Self.entry("x\u{1}\n/é😀", .embedded)]),
                        "a10": Self.entry("a10", .embedded), "a9": Self.entry("a9", .embedded), "_": Self.entry("u", .embedded),
                    ]))
            deep.modal = Self.entry("alert", .modal)
            deep.version = UInt64.max
            states.append(deep)
            for state in states {
                #expect(
                    String(decoding: NavigationDocument.write(state, scenePathPrefix: Self.prefix), as: UTF8.self)
                        == (try Self.foundationBytes(state)))
            }
        }
    }
}
