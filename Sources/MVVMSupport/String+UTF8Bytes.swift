extension String {
    /// Whether every byte of the string's UTF-8 is ASCII (two ASCII strings are equal exactly
    /// when their bytes are).
    package var isASCII: Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte >= 0x80 { return false }
            return true
        } ?? utf8.allSatisfy { $0 < 0x80 }
    }

    /// The bytes as a string when they are valid UTF-8, otherwise `nil`.
    ///
    /// ASCII bytes (the common case for JSON members and query arguments) take a fast path:
    /// `String(validating:as:)` looks up generic metadata on every call.
    package init?(utf8Bytes bytes: UnsafeBufferPointer<UInt8>) {
        var union: UInt8 = 0
        for byte in bytes { union |= byte }
        if union < 0x80 {
            self = String(decoding: bytes, as: UTF8.self)
        } else {
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            self = text
        }
    }

    /// ``init(utf8Bytes:)`` for bytes in an array.
    package init?(utf8Bytes bytes: [UInt8]) {
        guard let text = bytes.withUnsafeBufferPointer({ String(utf8Bytes: $0) }) else { return nil }
        self = text
    }
}
