import Foundation
import Testing

@testable import MVVMJSON

/// The fast coders (`JSONBytesEncoder`, `JSONValueDecoder`) against Foundation's: the same
/// bytes as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`, and the same values
/// and the same `DecodingError`s (case and coding path) as `JSONDecoder`.
@Suite("Fast JSON coding, compared with Foundation")
struct FastCodingTests {
    // MARK: Encoding: the same bytes as Foundation

    @Test("Members are sorted as Foundation sorts them: case, digits, underscores, non-ASCII, empty and canonically equal keys")
    func memberOrder() throws {
        try expectSameBytes(OddKeys())
        try expectSameBytes(["b": 1, "B": 2, "a10": 3, "a9": 4, "_": 5, "é": 6, "😀": 8, "": 9, "Z": 10, "aa": 11, "a": 12])
    }

    @Test("Nested structs, optionals, arrays, dictionaries and enums with associated values")
    func composites() throws {
        try expectSameBytes(Garage.sample)
        try expectSameBytes([Garage.sample, Garage(name: "empty", cars: [], owners: [:], byNumber: [:], notes: nil, tags: [], shapes: [])])
        try expectSameBytes(Shape.allSamples)
        try expectSameBytes([1: "one", -20: "minus twenty", 3: "three"])
        try expectSameBytes(["grid": [[1, 2], [], [3]]])
        try expectSameBytes([Optional(1), nil, 3])
        try expectSameBytes(Set(["only"]))
    }

    @Test("Top-level scalars, arrays, empty containers and nil")
    func topLevel() throws {
        try expectSameBytes(42)
        try expectSameBytes(-7.25)
        try expectSameBytes("text")
        try expectSameBytes(true)
        try expectSameBytes(Int?.none)
        try expectSameBytes([Int]())
        try expectSameBytes([String: Int]())
        try expectSameBytes(Empty())
        try expectSameBytes([1, 2, 3])
        try expectSameBytes([[String]]([["a"], []]))
    }

    @Test("Dates, Data, URLs and Decimals as Foundation treats them by default")
    func foundationTypes() throws {
        try expectSameBytes(Stamps.sample)
        try expectSameBytes(Date(timeIntervalSinceReferenceDate: 1.5))
        try expectSameBytes(Data([0, 1, 2, 250]))
        try expectSameBytes(URL(string: "https://example.com/a b?q=1&r=é"))  // nil: no URL
        try expectSameBytes(URL(string: "https://example.com/path/to?query=1#frag"))
        let decimals = ["0", "1.5", "-123.456", "12345678901234567890", "0.000001", "1e30", "-0.5", "3.14159265358979323846"]
        try expectSameBytes(decimals.compactMap { Decimal(string: $0) })
    }

    @Test("Integers at the edges of their types")
    func integers() throws {
        try expectSameBytes(
            Integers(int: .min, int8: .min, int16: .min, int32: .min, int64: .min, uint: .max, uint8: .max, uint16: .max, uint32: .max, uint64: .max))
        try expectSameBytes(
            Integers(int: .max, int8: .max, int16: .max, int32: .max, int64: .max, uint: 0, uint8: 0, uint16: 0, uint32: 0, uint64: 0))
        try expectSameBytes([Int128.min, Int128.max])
        try expectSameBytes([UInt128.max])
    }

    @Test("Doubles and Floats are spelled with Foundation's digits")
    func floatingPoint() throws {
        let doubles: [Double] = [
            0, -0.0, 1, -1, 0.1, 0.2, 0.30000000000000004, 1.5e-7, 1e-5, 1e-7, 100, 1e15, 1e16, 1e21, 1e22, 123_456_789_012_345,
            1_234_567_890_123_456, 12_345_678_901_234_568, 9_007_199_254_740_992, 9_007_199_254_740_994, .pi, -.pi, 1e300, -1e-300,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 12345678.9, 0.5, 2.5e-5,
        ]
        try expectSameBytes(doubles)
        let floats: [Float] = [
            0, -0.0, 1, 0.1, 1.1, 3.4e38, 1.2e-38, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 16_777_216, 16_777_218, 1e10, 123.456,
        ]
        try expectSameBytes(floats)
        try expectSameBytes(["double": 0.1, "whole": 2.0])
        try expectSameBytes(Float(0.1))
    }

    @Test("Random finite Doubles and Floats, by bit pattern", arguments: [1, 2, 3])
    func randomFloatingPoint(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let doubles = (0..<2000).map { _ in Double(bitPattern: generator.next()) }.filter(\.isFinite)
        let floats = (0..<2000).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: generator.next())) }.filter(\.isFinite)
        let wholes = (0..<2000).map { _ in Double(Int64(bitPattern: generator.next()) >> (generator.next() % 64)) }
        try expectSameBytes(doubles)
        try expectSameBytes(floats)
        try expectSameBytes(wholes)
    }

    @Test("Strings: every control character, quotes, backslashes, slashes, DEL, emoji, U+2028 and U+2029")
    func strings() throws {
        let controls = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })
        let texts = [
            controls, "\"quoted\"", "back\\slash", "a/b</script>", "\u{7F}", "😀 family: 👨‍👩‍👧", "line\u{2028}para\u{2029}end",
            "e\u{301} é", "", "plain", "\u{FEFF}bom", "\u{0}", "tab\tnew\nline\r",
        ]
        try expectSameBytes(texts)
        try expectSameBytes(Dictionary(uniqueKeysWithValues: texts.map { ($0, $0) }))
    }

    @Test("Random strings of scalars from every plane", arguments: [7, 8])
    func randomStrings(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0x80...0x7FF, 0x800...0xFFFF, 0x10000...0x10FFFF]
        let texts = (0..<300).map { _ in
            String(
                String.UnicodeScalarView(
                    (0..<Int(generator.next() % 12)).compactMap { _ in
                        Unicode.Scalar(UInt32.random(in: ranges[Int(generator.next() % 4)], using: &generator))
                    }))
        }
        try expectSameBytes(texts)
        try expectSameBytes(Dictionary(texts.map { ($0, 1) }, uniquingKeysWith: +))
    }

    @Test("Custom encoders: super encoders, nested containers, explicit nil, a key set twice, a value that writes nothing")
    func customEncoding() throws {
        try expectSameBytes(WithSuper.sample)
        try expectSameBytes(Rewrites())
        try expectSameBytes(Holder(nothing: Nothing(), list: [Nothing(), Nothing()]))
        #expect(throws: EncodingError.self) { try JSONBytesEncoder.encode(Nothing()) }
        #expect(throws: EncodingError.self) { try foundationEncoder.encode(Nothing()) }
    }

    @Test("Values are written in one pass unless a container is filled out of order or a super encoder is asked for")
    func onePass() throws {
        #expect(try JSONBytesEncoder.encodeInOnePass(Garage.sample) != nil)
        #expect(try JSONBytesEncoder.encodeInOnePass(Shape.allSamples) != nil)
        #expect(try JSONBytesEncoder.encodeInOnePass(Stamps.sample) != nil)
        #expect(try JSONBytesEncoder.encodeInOnePass(OddKeys()) != nil)
        #expect(try JSONBytesEncoder.encodeInOnePass(Holder(nothing: Nothing(), list: [Nothing(), Nothing()])) != nil)
        #expect(try JSONBytesEncoder.encodeInOnePass(["grid": [[1, 2], [], [3]]]) != nil)
        #expect(try JSONBytesEncoder.encodeInOnePass(InterleavedNesting()) != nil)
        #expect(try JSONBytesEncoder.encodeInOnePass(WithSuper.sample) == nil)
        #expect(try JSONBytesEncoder.encodeInOnePass(Rewrites()) == nil)
        #expect(try JSONBytesEncoder.encodeInOnePass(LateNestedWrite()) == nil)
        #expect(try JSONBytesEncoder.encodeInOnePass(TwoSingleValues()) == nil)
        try expectSameBytes(InterleavedNesting())
        try expectSameBytes(LateNestedWrite())
        // Foundation's encoder stops the process on a second single value; the tree keeps the last.
        #expect(try JSONBytesEncoder.encode(TwoSingleValues()) == Array(#""two""#.utf8))
        try expectSameBytes(SameKeyTwice())
        try expectSameBytes(EncodesInside())
        #expect(try JSONBytesEncoder.encodeInOnePass(SameKeyTwice()) != nil)
    }

    @Test("A NaN or an infinity throws invalidValue with the same coding path as Foundation")
    func nonFiniteThrows() throws {
        let values: [Reading] = [
            Reading(value: .nan, values: []), Reading(value: 1, values: [1, .infinity]),
            Reading(value: -.infinity, values: []), Reading(value: 1, values: [], float: .nan),
        ]
        for value in values {
            let ours = encodingFailure { try JSONBytesEncoder.encode(value) }
            let theirs = encodingFailure { try foundationEncoder.encode(value) }
            #expect(ours != nil)
            #expect(ours == theirs)
        }
        #expect(encodingFailure { try JSONBytesEncoder.encode(Double.nan) } == encodingFailure { try foundationEncoder.encode(Double.nan) })
        #expect(
            encodingFailure { try JSONBytesEncoder.encode([Float.infinity]) } == encodingFailure { try foundationEncoder.encode([Float.infinity]) })
    }

    @Test("Containers nested beyond Foundation's depth limit throw for both")
    func depthLimit() throws {
        var deep = Nest.leaf
        for _ in 0..<510 { deep = .node([deep]) }
        try expectSameBytes(deep)
        for _ in 0..<5 { deep = .node([deep]) }
        #expect(throws: EncodingError.self) { try JSONBytesEncoder.encode(deep) }
        #expect(throws: EncodingError.self) { try foundationEncoder.encode(deep) }
    }

    // MARK: Decoding: the same values and errors as Foundation

    @Test("Valid documents decode to the same values")
    func decodesValues() throws {
        try expectSameDecoding(Garage.self, from: try foundationEncoder.encode(Garage.sample))
        try expectSameDecoding([Shape].self, from: try foundationEncoder.encode(Shape.allSamples))
        try expectSameDecoding(Stamps.self, from: try foundationEncoder.encode(Stamps.sample))
        try expectSameDecoding(WithSuper.self, from: try foundationEncoder.encode(WithSuper.sample))
        try expectSameDecoding(OddKeys.self, from: try foundationEncoder.encode(OddKeys()))
        try expectSameDecoding(Counted.self, #"{"count": 2.0, "items": [1e2, -0, 3], "inner": {"count": 1}}"#)
        try expectSameDecoding(Counted.self, #"{"count": 1, "items": [], "inner": {"count": 1, "note": null}, "extra": true}"#)
        try expectSameDecoding([Int: String].self, #"{"1": "one", "-2": "minus two"}"#)
        try expectSameDecoding([String: [Double]].self, #"{"a": [1.5, -0.25, 1e21], "": []}"#)
        try expectSameDecoding(Int?.self, "null")
        try expectSameDecoding(String.self, #""top""#)
        try expectSameDecoding([Decimal].self, "[0, 1.5, -123.456, 0.000001, 1e30, 100]")
        try expectSameDecoding([Float].self, "[0.1, 1e38, -2.5, 16777217]")
        try expectSameDecoding(NilAware.self, "[null, 1, null]")
        try expectSameDecoding([URL].self, #"["https://example.com/a?b=c", "relative/path"]"#)
        try expectSameDecoding(Data.self, #""AAEC+g==""#)
    }

    @Test("Whole numbers beyond 2^53 decode digit for digit, as Foundation's decoder reads them")
    func largeIntegers() throws {
        try expectSameDecoding([Int64].self, "[9007199254740993, -9007199254740993, 9223372036854775807, -9223372036854775808]")
        try expectSameDecoding([UInt64].self, "[9007199254740993, 9223372036854775807]")
        try expectSameDecoding([Int].self, "[4611686018427387905]")
        try expectSameDecoding([Double].self, "[9007199254740993, 1]")
        try expectSameDecoding([Decimal].self, "[9007199254740993]")
        // Out of range, or a fraction: the same error as Foundation's.
        try expectSameDecoding(Int8.self, "300")
        try expectSameDecoding(UInt64.self, "-1")
        try expectSameDecoding(Int64.self, "1.5")
        // The value keeps the digits and writes them back.
        let parsed = try #require(StrictJSON.parse(Data("[9007199254740993,-0,1.0,2e0]".utf8)))
        #expect(parsed == .array([.integer(9_007_199_254_740_993), .number(-0.0), .number(1), .number(2)]))
        #expect(String(decoding: parsed.jsonData, as: UTF8.self) == "[9007199254740993,-0,1,2]")
    }

    @Test("JSON numbers compare by value: an integer equals the number of the same value")
    func numbersCompareByValue() {
        #expect(JSONValue.integer(2) == .number(2))
        #expect(JSONValue.number(2) == .integer(2))
        #expect(JSONValue.integer(2) != .number(2.5))
        #expect(JSONValue.integer(9_007_199_254_740_993) != .number(9_007_199_254_740_992), "the Double is not that integer")
        #expect(JSONValue.array([.integer(1)]) == .array([.number(1)]))
        #expect(JSONValue.integer(0) != .bool(false))
    }

    @Test(
        "Failures throw the same DecodingError case with the same coding path",
        arguments: [
            // A nested member of the wrong type, an array element of the wrong type.
            #"{"count": 1, "items": [], "inner": {"count": "x"}}"#,
            #"{"count": 1, "items": [1, "two", 3], "inner": {"count": 1}}"#,
            // A missing key at the top and in a nested object, null where a value is required.
            #"{"items": [], "inner": {"count": 1}}"#,
            #"{"count": 1, "items": [], "inner": {}}"#,
            #"{"count": 1, "items": [], "inner": {"count": null}}"#,
            #"{"count": 1, "items": [1, null], "inner": {"count": 1}}"#,
            #"{"count": 1, "items": [], "inner": null}"#,
            #"{"count": 1, "items": {}, "inner": {"count": 1}}"#,
            #"{"count": 1, "items": [], "inner": []}"#,
            // Numbers that are no integers, or out of range; numbers where a Bool or String is expected.
            #"{"count": 1.5, "items": [], "inner": {"count": 1}}"#,
            #"{"count": 1e300, "items": [], "inner": {"count": 1}}"#,
            #"{"count": 1, "items": [], "inner": {"count": 1, "flag": 1}}"#,
            #"{"count": 1, "items": [], "inner": {"count": 1, "note": 5}}"#,
            #"{"count": 1, "items": [], "inner": {"count": 1, "small": 300}}"#,
            #"{"count": 1, "items": [], "inner": {"count": 1, "small": -129}}"#,
            #"{"count": 1, "items": [], "inner": {"count": 1, "unsigned": -1}}"#,
            #"{"count": 1, "items": [], "inner": {"count": 1, "ratio": "1"}}"#,
            #"{"count": 1, "items": [], "inner": {"count": 1, "ratio": 1e300}}"#,
            #"{"count": "1", "items": [], "inner": {"count": 1}}"#,
            #"{"count": true, "items": [], "inner": {"count": 1}}"#,
            #"[]"#, #"null"#, #"3"#,
        ])
    func decodingFailures(_ json: String) throws {
        try expectSameDecoding(Counted.self, json)
    }

    @Test(
        "Failures in enums, dictionaries, Foundation types, unkeyed and super decoders",
        arguments: [
            (#"[{"circle": {"radius": "big"}}]"#, "shapes"),
            (#"[{"circle": {"radius": 1}, "square": {"_0": 1}}]"#, "shapes"),
            (#"[{"triangle": {}}]"#, "shapes"),
            (#"[{"square": {}}]"#, "shapes"),
            (#"{"1": "one", "x": "ex"}"#, "intKeys"),
            (#"{"1": 2}"#, "intKeys"),
            (#"{"a": [1, "b"]}"#, "stringKeys"),
            (#"{"at": "2020", "blob": "AAE=", "link": "https://e.com", "amount": 1}"#, "stamps"),
            (#"{"at": 1, "blob": "***", "link": "https://e.com", "amount": 1}"#, "stamps"),
            (#"{"at": 1, "blob": 7, "link": "https://e.com", "amount": 1}"#, "stamps"),
            (#"{"at": 1, "blob": "AAE=", "link": "", "amount": 1}"#, "stamps"),
            (#"{"at": 1, "blob": "AAE=", "link": 5, "amount": 1}"#, "stamps"),
            (#"{"at": 1, "blob": "AAE=", "link": "https://e.com", "amount": "1"}"#, "stamps"),
            (#"{"at": null, "blob": "AAE=", "link": "https://e.com", "amount": 1}"#, "stamps"),
            (#"[1, 2]"#, "triple"),
            (#"[1, 2, "x"]"#, "triple"),
            (#"[null]"#, "nilAware"),
            (#"[null, null, null, null]"#, "nilAware"),
            (#"[1, 1, 1]"#, "nilAware"),
            (#"[1, "x"]"#, "nilAware"),
            (#"{"own": 1}"#, "super"),
            (#"{"own": 1, "super": {"name": 5}}"#, "super"),
            (#"{"own": 1, "super": {"name": "a"}, "parent": {"name": "b"}, "list": [1]}"#, "super"),
            (#"{"own": 1, "super": {"name": "a"}, "parent": {"name": "b"}, "list": [1, {"name": null}, 2]}"#, "super"),
            (#"{"own": 1, "super": {"name": "a"}, "parent": {"name": "b"}, "list": [1, {"name": "c"}, 2], "grid": [[1], "x"]}"#, "super"),
            (#"[1.5]"#, "floats"),
            (#"[1e39]"#, "floats"),
            (#"[1e-46, 1e-40]"#, "floats"),
            (#"[1e-40]"#, "floats"),
        ])
    func otherDecodingFailures(_ json: String, _ shape: String) throws {
        switch shape {
        case "shapes": try expectSameDecoding([Shape].self, json)
        case "intKeys": try expectSameDecoding([Int: String].self, json)
        case "stringKeys": try expectSameDecoding([String: [Int]].self, json)
        case "stamps": try expectSameDecoding(Stamps.self, json)
        case "triple": try expectSameDecoding(Triple.self, json)
        case "nilAware": try expectSameDecoding(NilAware.self, json)
        case "super": try expectSameDecoding(WithSuper.self, json)
        default: try expectSameDecoding([Float].self, json)
        }
    }

    @Test("Values encoded by the fast encoder decode back to the same values with the fast decoder")
    func roundTrips() throws {
        try expectRoundTrip(Garage.sample)
        try expectRoundTrip(Shape.allSamples)
        try expectRoundTrip(Stamps.sample)
        try expectRoundTrip(WithSuper.sample)
        try expectRoundTrip(
            Integers(int: -5, int8: .min, int16: .max, int32: 0, int64: 1 << 52, uint: 7, uint8: .max, uint16: 0, uint32: .max, uint64: 1 << 53))
        try expectRoundTrip([0.1, -0.0, 1e21, 1.5e-7, .greatestFiniteMagnitude])
        try expectRoundTrip(["line\u{2028}", "\u{0}\u{1F}\"\\/", "😀"])
    }
}

// MARK: - Comparing with Foundation

private var foundationEncoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}

/// Encodes `value` with both encoders and expects the same bytes (compared as text, so that a
/// failure shows both documents).
private func expectSameBytes<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let theirs = try foundationEncoder.encode(value)
    let ours = try JSONBytesEncoder.encode(value)
    #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self), sourceLocation: sourceLocation)
    #expect(ours == Array(theirs), sourceLocation: sourceLocation)
    if let onePass = try JSONBytesEncoder.encodeInOnePass(value) {
        #expect(String(decoding: onePass, as: UTF8.self) == String(decoding: theirs, as: UTF8.self), sourceLocation: sourceLocation)
    }
}

/// An encoding error reduced to what both encoders must agree on: its case and coding path.
private func encodingFailure(_ encode: () throws -> some Any) -> String? {
    do {
        _ = try encode()
        return nil
    } catch EncodingError.invalidValue(_, let context) {
        return "invalidValue at \(context.codingPath.map(\.stringValue))"
    } catch {
        return "\(error)"
    }
}

/// A decoding outcome reduced to what both decoders must agree on: the value, or the error's
/// case, coding path (and missing key).
private func outcome<T: Decodable & Equatable>(_ decode: () throws -> T) -> Result<T, DecodingSummary> {
    do {
        return .success(try decode())
    } catch let error as DecodingError {
        return .failure(DecodingSummary(error))
    } catch {
        return .failure(DecodingSummary(kind: "\(error)", path: []))
    }
}

/// A `DecodingError`'s case and coding path.
private struct DecodingSummary: Error, Equatable {
    var kind: String
    var path: [String]

    init(kind: String, path: [String]) {
        self.kind = kind
        self.path = path
    }

    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(_, let context): self.init(kind: "typeMismatch", path: context.codingPath.map(\.stringValue))
        case .valueNotFound(_, let context): self.init(kind: "valueNotFound", path: context.codingPath.map(\.stringValue))
        case .keyNotFound(let key, let context): self.init(kind: "keyNotFound(\(key.stringValue))", path: context.codingPath.map(\.stringValue))
        case .dataCorrupted(let context): self.init(kind: "dataCorrupted", path: context.codingPath.map(\.stringValue))
        @unknown default: self.init(kind: "\(error)", path: [])
        }
    }
}

/// Decodes `data` with Foundation's decoder and, parsed by `StrictJSON`, with the fast one, and
/// expects the same value or the same error.
private func expectSameDecoding<T: Decodable & Equatable>(_ type: T.Type, from data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let parsed = try #require(StrictJSON.parse(data), sourceLocation: sourceLocation)
    let theirs = outcome { try JSONDecoder().decode(type, from: data) }
    let ours = outcome { try JSONValueDecoder.decode(type, from: parsed) }
    #expect(ours == theirs, sourceLocation: sourceLocation)
}

private func expectSameDecoding<T: Decodable & Equatable>(_ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try expectSameDecoding(type, from: Data(json.utf8), sourceLocation: sourceLocation)
}

/// Encodes with the fast encoder, decodes with the fast decoder and expects the same value.
private func expectRoundTrip<T: Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let parsed = try #require(StrictJSON.parse(Data(try JSONBytesEncoder.encode(value))), sourceLocation: sourceLocation)
    #expect(try JSONValueDecoder.decode(T.self, from: parsed) == value, sourceLocation: sourceLocation)
}

/// A deterministic random number generator (SplitMix64), so that failures can be replayed.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
