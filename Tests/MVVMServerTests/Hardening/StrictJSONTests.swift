import Foundation
import Testing
@testable import MVVMServer

@Suite("The strict JSON syntax check in front of the decoder")
struct StrictJSONTests {
    @Test("Well-formed documents pass", arguments: [
        #"{}"#, #"[]"#, #" {"a": [1, -2.5e+3, 0, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9"]} "#, "42", #""text""#,
        #"{"a":{"b":{"c":[[]]}}}"#, "-0", "0.5E-2",
    ])
    func wellFormed(_ text: String) {
        #expect(StrictJSON.isWellFormed(Data(text.utf8)))
    }

    @Test("Malformed documents fail, including what Foundation's parser lets through", arguments: [
        #"{"a": 1,}"#, "[1,]", "{'a': 1}", #"{"a" 1}"#, #"{"a":}"#, "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", "[", "]", "{",
        #"{"a":1}}"#, #"["a" "b"]"#, #""\x""#, #""\u12""#, "\"tab\there\"", "", " ", #"{"a":1} {"b":2}"#, "NaN", "Infinity",
    ])
    func malformed(_ text: String) {
        #expect(!StrictJSON.isWellFormed(Data(text.utf8)))
    }

    @Test("Nesting deeper than the limit fails without exhausting the stack")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(!StrictJSON.isWellFormed(Data(deep.utf8)))
        let limit = String(repeating: "[", count: StrictJSON.maximumDepth) + String(repeating: "]", count: StrictJSON.maximumDepth)
        #expect(StrictJSON.isWellFormed(Data(limit.utf8)))
    }
}
