import Foundation
import Testing

@testable import MVVMJSON

@Suite("The strict JSON syntax check in front of the decoder")
struct StrictJSONTests {
    @Test(
        "Well-formed documents pass",
        arguments: [
            #"{}"#, #"[]"#, #" {"a": [1, -2.5e+3, 0, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9"]} "#, "42", #""text""#,
            #"{"a":{"b":{"c":[[]]}}}"#, "-0", "0.5E-2",
        ])
    func wellFormed(_ text: String) {
        #expect(StrictJSON.isWellFormed(Data(text.utf8)))
        #expect(StrictJSON.parse(Data(text.utf8)) != nil, "the check and the parser agree")
    }

    @Test(
        "Malformed documents fail, including what Foundation's parser lets through",
        arguments: [
            #"{"a": 1,}"#, "[1,]", "{'a': 1}", #"{"a" 1}"#, #"{"a":}"#, "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", "[", "]", "{",
            #"{"a":1}}"#, #"["a" "b"]"#, #""\x""#, #""\u12""#, "\"tab\there\"", "", " ", #"{"a":1} {"b":2}"#, "NaN", "Infinity",
            "1e400", #"[1, {"a": -1e999}]"#, #"{"a": [1, 2} "#, #"{"a": {"b": 1]}"#, #"[{"a" 1}]"#,
        ])
    func malformed(_ text: String) {
        #expect(!StrictJSON.isWellFormed(Data(text.utf8)))
        #expect(StrictJSON.parse(Data(text.utf8)) == nil, "the check and the parser agree")
    }

    @Test("Nesting deeper than the limit fails without exhausting the stack")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(!StrictJSON.isWellFormed(Data(deep.utf8)))
        let limit = String(repeating: "[", count: StrictJSON.maximumDepth) + String(repeating: "]", count: StrictJSON.maximumDepth)
        #expect(StrictJSON.isWellFormed(Data(limit.utf8)))
        let objects = String(repeating: #"{"a":"#, count: StrictJSON.maximumDepth) + "1" + String(repeating: "}", count: StrictJSON.maximumDepth)
        #expect(StrictJSON.isWellFormed(Data(objects.utf8)))
        #expect(!StrictJSON.isWellFormed(Data(("[" + objects + "]").utf8)))
    }

    @Test(
        "Strings are kept when their bytes are UTF-8 (ASCII or not) and refused when they are not",
        arguments: [
            ([0x61, 0x62], "ab"), ([0xC3, 0xA9], "é"), ([0xF0, 0x9F, 0x9A, 0x97], "🚗"), ([0x61, 0xE2, 0x82, 0xAC], "a€"),
            ([0xFF], nil), ([0xC3], nil), ([0xC0, 0xAF], nil), ([0xED, 0xA0, 0x80], nil), ([0x61, 0x80], nil),
        ] as [([UInt8], String?)])
    func utf8Strings(_ bytes: [UInt8], _ expected: String?) {
        #expect(String(utf8Bytes: bytes) == expected)
        let document = Data([UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")])
        #expect(StrictJSON.parse(document).map { $0 == .string(expected ?? "") } == (expected == nil ? nil : true))
    }

    @Test(
        "A plain object's members found in its bytes are the members the parser gives",
        arguments: [
            "{}", #" {"a": [1, {"b": "x"}], "c" : null , "d":-2.5e+3,"e":"\u00e9\n","f":true} "#, #"{"a":1,"a":{"z":[]},"b":"é"}"#,
            #"{"a":"\ud83d\ude97"}"#, String(repeating: "[", count: 10) + "]",
        ])
    func plainObjects(_ text: String) throws {
        let parsed = StrictJSON.parse(Data(text.utf8))?.objectValue
        let object = JSONObjectBytes(Data(text.utf8))
        #expect(object?.parsed == parsed)
        guard let object, let parsed else { return }
        #expect(object.keyCount == parsed.count)
        #expect(Set(object.keys) == Set(parsed.keys))
        for (name, value) in parsed { #expect(object[name] == value) }
        #expect(object["missing"] == nil)
    }

    @Test(
        "Objects are not taken from their bytes when a key has an escape or a byte beyond ASCII, and other documents never",
        arguments: [
            #"{"\u0061":1}"#, #"{"é":1}"#, #"{"a\n":1}"#, "[]", "1", #""a""#, "null", "{", #"{"a":1,}"#, #"{"a":1} x"#, "",
            "{" + (0...JSONObjectBytes.maximumMembers).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}",
        ])
    func notPlain(_ text: String) {
        #expect(JSONObjectBytes(Data(text.utf8)) == nil)
    }

    @Test("The members merged over another object's decode as the merged object does")
    func mergedMembersDecode() throws {
        struct Pair: Codable, Equatable {
            var left: String?
            var right: [Int]
            var inner: [String: Bool]?
        }
        let base = try #require(JSONObjectBytes(Data(#"{"left":"base","right":[1],"inner":{"x":true}}"#.utf8)))
        let sent = try #require(JSONObjectBytes(Data(#"{"right":[2,3],"inner":null}"#.utf8)))
        let merged = JSONObjectMembers(sent, over: base)
        #expect(try merged.decode(Pair.self) == Pair(left: "base", right: [2, 3], inner: nil))
        #expect(try merged.decode(Pair.self) == JSONValue.object(merged.parsed).decode(Pair.self))
        let wrong = try #require(JSONObjectBytes(Data(#"{"right":["no"]}"#.utf8)))
        let ours = #expect(throws: DecodingError.self) { try JSONObjectMembers(wrong, over: base).decode(Pair.self) }
        let reference = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Pair.self, from: Data(#"{"left":"base","right":["no"]}"#.utf8))
        }
        if case .typeMismatch(_, let ourContext) = ours, case .typeMismatch(_, let theirContext) = reference {
            #expect(ourContext.codingPath.map(\.stringValue) == theirContext.codingPath.map(\.stringValue))
        } else {
            Issue.record("expected typeMismatch from both: \(String(describing: ours)), \(String(describing: reference))")
        }
    }
}
