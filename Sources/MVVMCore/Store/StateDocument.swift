import Foundation
import MVVMJSON

/// The state document of a scene, encoded once per version and shared by every reader:
/// `{"error", "input", "key", "lifecycle", "output", "scene", "version"}`.
package enum StateDocument {
    static func encode(entry: StoreEntry, input: [UInt8], output: [UInt8]) -> Data {
        var writer = JSONBytesWriter(capacity: input.count + output.count + entry.key.utf8.count + entry.scene.utf8.count + 96)
        writer.append(#"{"error":"#)
        if let error = entry.error { writer.writeString(error) } else { writer.append("null") }
        writer.append(#","input":"#)
        writer.append(bytes: input)
        writer.append(#","key":"#)
        writer.writeString(entry.key)
        writer.append(#","lifecycle":""#)
        writer.append(bytes: entry.lifecycle.state.rawValue.utf8)
        writer.append(#"","output":"#)
        writer.append(bytes: output)
        writer.append(#","scene":"#)
        writer.writeString(entry.scene)
        writer.append(#","version":"#)
        writer.writeInteger(entry.version, negative: false)
        writer.append("}")
        return Data(writer.bytes)
    }

    /// `document` (a JSON object) with one more member appended.
    package static func adding(_ name: String, _ value: Data, to document: Data) -> Data {
        guard document.last == UInt8(ascii: "}") else { return document }
        var writer = JSONBytesWriter(capacity: document.count + name.utf8.count + value.count + 8)
        writer.append(bytes: document.dropLast())
        writer.append(",")
        writer.writeString(name)
        writer.append(":")
        writer.append(bytes: value)
        writer.append("}")
        return Data(writer.bytes)
    }
}
