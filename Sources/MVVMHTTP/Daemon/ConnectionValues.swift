internal import CMicroHTTPD

// What the access handler reads of a request through libmicrohttpd: its method, its header
// fields and its query arguments, as Swift strings.

/// Collects header fields or query arguments through MHD_get_connection_values; it lives on
/// the caller's stack for the length of that call.
private struct ValueCollector {
    var fields: [(name: String, value: String)] = []
    var malformed = false
    let decodeQuery: Bool
    /// The names of the values to keep, lower-cased; `nil` keeps every value.
    let kept: [[UInt8]]?
}

/// Whether `name` is one of `names` (lower-cased), ASCII letters compared without case.
private func isKept(_ name: UnsafePointer<CChar>, among names: [[UInt8]]) -> Bool {
    let length = strlen(name)
    return names.contains { kept in
        guard kept.count == length else { return false }
        for index in 0..<length {
            let byte = UInt8(bitPattern: name[index])
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            if lower != kept[index] { return false }
        }
        return true
    }
}

private func collectValue(_ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?)
    -> MHD_Result
{
    guard let context, let key else { return .YES }
    let collector = context.assumingMemoryBound(to: ValueCollector.self)
    if let kept = collector.pointee.kept, !isKept(key, among: kept) { return .YES }
    guard let name = String(validatingCString: key) else {
        collector.pointee.malformed = true
        return .NO
    }
    let text = value.flatMap { String(validatingCString: $0) } ?? (value == nil ? "" : nil)
    guard let text else {
        collector.pointee.malformed = true
        return .NO
    }
    if collector.pointee.decodeQuery {
        guard let decodedName = PercentDecoding.decode(name[...], plusIsSpace: true),
            let decodedValue = PercentDecoding.decode(text[...], plusIsSpace: true)
        else {
            collector.pointee.malformed = true
            return .NO
        }
        collector.pointee.fields.append((decodedName, decodedValue))
    } else {
        collector.pointee.fields.append((name, text))
    }
    return .YES
}

/// The values of one kind, in the order sent, or nil when one is malformed; with `kept`, only
/// the values of those names (lower-cased), the others neither read nor checked.
func connectionValues(of connection: OpaquePointer, kind: MHD_ValueKind, decodeQuery: Bool, kept: [[UInt8]]? = nil) -> [(
    name: String, value: String
)]? {
    // Called without an iterator, libmicrohttpd only counts: most requests have no query.
    let count = MHD_get_connection_values(connection, kind, nil, nil)
    guard count > 0 else { return [] }
    var collector = ValueCollector(decodeQuery: decodeQuery, kept: kept)
    collector.fields.reserveCapacity(Int(count))
    let visited = withUnsafeMutablePointer(to: &collector) { pointer in
        MHD_get_connection_values(connection, kind, collectValue, pointer)
    }
    // Every value counted is visited unless the collector stopped at a malformed one; any other
    // count means the values were not all read, and they are not trusted.
    guard !collector.malformed, visited == count else { return nil }
    return collector.fields
}

/// Whether the method is `GET`.
func isGET(_ method: UnsafePointer<CChar>) -> Bool {
    // Byte by byte, so that nothing past the terminating NUL is read.
    method[0] == 0x47 && method[1] == 0x45 && method[2] == 0x54 && method[3] == 0
}

/// The method as a Swift string: the common ones as literals (no copy, no validation).
func methodName(_ method: UnsafePointer<CChar>) -> String {
    if isGET(method) { return "GET" }
    // Byte by byte, so that nothing past the terminating NUL is read.
    if method[0] == 0x50, method[1] == 0x4F, method[2] == 0x53, method[3] == 0x54, method[4] == 0 { return "POST" }
    return String(cString: method)
}
