import MVVMHTTP

/// `RequestParsers.query`: a raw query string decoded into pairs.
///
/// Properties: it agrees with ``Reference/query(_:)``; no name or value holds NUL; the pairs,
/// encoded again, decode to themselves; and an arbitrary name and value (the input cut in two)
/// encoded as one pair decode to exactly that pair (or are rejected when one holds NUL).
enum QueryFuzz {
    static func run(_ data: [UInt8]) throws(PropertyViolation) {
        let check = Checker(target: "query")
        let raw = String(decoding: data, as: UTF8.self)
        let pairs = RequestParsers.query(raw)
        let expected = Reference.query(raw)
        try check.expect(pairs == expected, "query(\(raw.debugDescription)) = \(String(describing: pairs)), expected \(String(describing: expected))")
        if let pairs {
            for (name, value) in pairs {
                try check.expect(
                    !name.utf8.contains(0) && !value.utf8.contains(0), "pair \(name.debugDescription)=\(value.debugDescription) holds NUL")
            }
            let encoded = Reference.encodeQuery(pairs)
            let again = RequestParsers.query(encoded)
            try check.expect(again == pairs, "re-encoded \(encoded.debugDescription) decoded to \(String(describing: again)), not \(pairs)")
        }

        // One name and one value made of the input's two halves (cut at its first 0xFF byte, or
        // in the middle), encoded as a pair.
        let cut = data.firstIndex(of: 0xFF) ?? data.count / 2
        let name = String(decoding: data[..<cut], as: UTF8.self)
        let value = String(decoding: data[min(cut + 1, data.count)...], as: UTF8.self)
        let encoded = Reference.percentEncode(name) + "=" + Reference.percentEncode(value)
        let decoded = RequestParsers.query(encoded)
        if name.utf8.contains(0) || value.utf8.contains(0) {
            try check.expect(decoded == nil, "the pair \(encoded.debugDescription) holds an encoded NUL but was accepted")
        } else {
            try check.expect(
                decoded == [name: value],
                "the pair \(encoded.debugDescription) decoded to \(String(describing: decoded)), not [\(name.debugDescription): \(value.debugDescription)]"
            )
        }
    }
}
