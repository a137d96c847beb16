import Foundation

/// The state document of a scene, encoded once per version and shared by every reader:
/// `{"error", "input", "key", "lifecycle", "output", "scene", "version"}`.
enum StateDocument {
    static func encode(entry: StoreEntry, input: Data, output: Data) -> Data {
        var document = Data()
        document.reserveCapacity(input.count + output.count + 128)
        document.append(contentsOf: #"{"error":"#.utf8)
        document.append(entry.error.map(jsonString) ?? Data("null".utf8))
        document.append(contentsOf: #","input":"#.utf8)
        document.append(input)
        document.append(contentsOf: #","key":"#.utf8)
        document.append(jsonString(entry.key))
        document.append(contentsOf: #","lifecycle":""#.utf8)
        document.append(contentsOf: entry.lifecycle.state.rawValue.utf8)
        document.append(contentsOf: #"","output":"#.utf8)
        document.append(output)
        document.append(contentsOf: #","scene":"#.utf8)
        document.append(jsonString(entry.scene))
        document.append(contentsOf: #","version":"#.utf8)
        document.append(contentsOf: String(entry.version).utf8)
        document.append(contentsOf: "}".utf8)
        return document
    }

    /// `document` (a JSON object) with one more member appended.
    static func adding(_ name: String, _ value: Data, to document: Data) -> Data {
        guard document.last == UInt8(ascii: "}") else { return document }
        var result = document.dropLast()
        result.append(contentsOf: ",".utf8)
        result.append(jsonString(name))
        result.append(contentsOf: ":".utf8)
        result.append(value)
        result.append(contentsOf: "}".utf8)
        return Data(result)
    }

    /// A JSON string literal.
    static func jsonString(_ text: String) -> Data {
        var writer = JSONBytesWriter()
        writer.writeString(text)
        return Data(writer.bytes)
    }
}
