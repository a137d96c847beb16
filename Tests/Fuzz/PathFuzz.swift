import MVVMHTTP

/// `RequestParsers.pathSegments`: the request path split at `/` and percent-decoded.
///
/// Properties: it agrees with ``Reference/pathSegments(_:)``; a decoded segment never holds NUL,
/// and holds `/` only when its raw segment had `%2F`; there is one segment per `/`; a segment
/// without escapes is the raw text; encoding the segments again gives them back; a path is only
/// rejected when it does not start with `/` or a segment has an escape or a NUL.
enum PathFuzz {
    static func run(_ data: [UInt8]) throws(PropertyViolation) {
        let check = Checker(target: "path")
        let path = String(decoding: data, as: UTF8.self)
        let segments = RequestParsers.pathSegments(path)
        let expected = Reference.pathSegments(path)
        try check.expect(
            segments == expected, "pathSegments(\(path.debugDescription)) = \(String(describing: segments)), expected \(String(describing: expected))"
        )

        let rawSegments = Array(path.utf8).dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard let segments else {
            let couldBeValid =
                path.utf8.first == UInt8(ascii: "/")
                && !rawSegments.contains { $0.contains(UInt8(ascii: "%")) || $0.contains(0) }
            try check.expect(!couldBeValid, "\(path.debugDescription) has no escape and no NUL but was rejected")
            return
        }
        try check.expect(
            segments.count == rawSegments.count, "\(segments.count) segments for \(rawSegments.count) slashes in \(path.debugDescription)")
        for (segment, raw) in zip(segments, rawSegments) {
            let rawText = String(decoding: raw, as: UTF8.self)
            try check.expect(!segment.utf8.contains(0), "segment \(segment.debugDescription) of \(path.debugDescription) holds NUL")
            if segment.utf8.contains(UInt8(ascii: "/")) {
                // Compared as bytes: as Characters, "%2F" followed by a combining mark is not
                // "%2F" (the mark joins the F's grapheme), which the fuzzer found.
                try check.expect(
                    Self.hasEncodedSlash(Array(raw)),
                    "segment \(segment.debugDescription) holds a slash that was not encoded in \(rawText.debugDescription)")
            }
            if !raw.contains(UInt8(ascii: "%")) {
                try check.expect(segment == rawText, "segment \(rawText.debugDescription) without escapes decoded to \(segment.debugDescription)")
            }
        }
        let encoded = "/" + segments.map(Reference.percentEncode).joined(separator: "/")
        let again = RequestParsers.pathSegments(encoded)
        try check.expect(again == segments, "re-encoded \(encoded.debugDescription) decoded to \(String(describing: again)), not \(segments)")
    }

    /// Whether raw bytes hold `%2F` or `%2f`.
    static func hasEncodedSlash(_ raw: [UInt8]) -> Bool {
        raw.indices.dropLast(2).contains { index in
            raw[index] == UInt8(ascii: "%") && raw[index + 1] == UInt8(ascii: "2") && (raw[index + 2] | 0x20) == UInt8(ascii: "f")
        }
    }
}
