import Foundation
import MVVMCore
import MVVMJSON

/// The navigation document as the API serves it: the core's navigation state with, on each
/// entry, `path`, the URL of the scene's state document in its session.
///
/// Written directly, with the members in the order the framework's coder sorts them (`key`,
/// `path`, `presentation`, `scene`, `slots`; `modal`, `stack`, `version`): every session
/// publishes its navigation when its root scene is set.
enum NavigationDocument {
    /// The writer of one session's navigation: its scenes' paths lie under
    /// `/sessions/ID/scenes/`.
    static func writer(sessionID: String) -> @Sendable (NavigationState) -> Data {
        let prefix = "/sessions/" + sessionID + "/scenes/"
        return { state in write(state, scenePathPrefix: prefix) }
    }

    /// The navigation as JSON, each entry's path being `scenePathPrefix` and its key.
    static func write(_ state: NavigationState, scenePathPrefix: String) -> Data {
        var writer = JSONBytesWriter(capacity: 256)
        writer.append(#"{"modal":"#)
        if let modal = state.modal { writer.write(modal, scenePathPrefix: scenePathPrefix) } else { writer.append("null") }
        writer.append(#","stack":["#)
        let stack = state.stack
        writer.writeSeparated(count: stack.count) { $0.write(stack[$1], scenePathPrefix: scenePathPrefix) }
        writer.append(#"],"version":"#)
        writer.writeInteger(state.version, negative: false)
        writer.append("}")
        return Data(writer.bytes)
    }
}

extension JSONBytesWriter {
    /// Writes an entry and its embedded children, slot names in UTF-8 order.
    fileprivate mutating func write(_ entry: NavigationEntry, scenePathPrefix: String) {
        append(#"{"key":"#)
        writeString(entry.key)
        append(#","path":"#)
        writeString(scenePathPrefix + entry.key)
        append(#","presentation":"#)
        writeString(entry.presentation.rawValue)
        append(#","scene":"#)
        writeString(entry.scene)
        append(#","slots":{"#)
        let slots = entry.slots.sorted(by: { Self.utf8Precedes($0.key, $1.key) })
        writeSeparated(count: slots.count) { writer, index in
            let slot = slots[index]
            writer.writeString(slot.key)
            writer.append(":")
            writer.write(slot.value, scenePathPrefix: scenePathPrefix)
        }
        append("}}")
    }
}
