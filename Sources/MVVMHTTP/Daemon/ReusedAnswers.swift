internal import CMicroHTTPD
import Foundation

/// A request that a kept answer may answer (``Responder/answer(_:reusableWhile:)``): a `GET`
/// without a body or a query string that its server's ``ReuseCheck`` allows; `nil` for any
/// other.
struct ReusableRequest {
    /// The request target, as libmicrohttpd gave it (valid while the request is being handled).
    let target: UnsafeBufferPointer<UInt8>

    init?(connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>, state: RequestState?, check: ReuseCheck) {
        guard isGET(method), state.map({ $0.body.isEmpty && !$0.bodyTooLarge }) ?? true,
            MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, nil, nil) == 0,
            check.allows(connection)
        else { return nil }
        target = UnsafeBufferPointer(start: UnsafeRawPointer(url).assumingMemoryBound(to: UInt8.self), count: strlen(url))
    }
}

/// A server's ``ReuseExclusions``, ready to check against a connection's header fields
/// without making a string: the field names as C strings, the media types as bytes.
struct ReuseCheck: Sendable {
    /// The excluded field names, each NUL-terminated, one after the other.
    private let names: [CChar]
    /// Where each name starts in ``names``.
    private let nameStarts: [Int]
    /// The excluded media types, lower-cased.
    private let mediaTypes: [[UInt8]]

    init(_ exclusions: ReuseExclusions) {
        var names: [CChar] = []
        var starts: [Int] = []
        for field in exclusions.fields {
            starts.append(names.count)
            names.append(contentsOf: field.utf8CString)
        }
        self.names = names
        nameStarts = starts
        mediaTypes = exclusions.acceptedMediaTypes.map { Array($0.lowercased().utf8) }
    }

    /// Whether the request on `connection` has none of the excluded fields, and no `Accept`
    /// field naming an excluded media type.
    func allows(_ connection: OpaquePointer) -> Bool {
        let noExcludedField = names.withUnsafeBufferPointer { names in
            nameStarts.allSatisfy { MHD_lookup_connection_value(connection, .HEADER_KIND, names.baseAddress! + $0) == nil }
        }
        guard noExcludedField else { return false }
        guard !mediaTypes.isEmpty, let accept = MHD_lookup_connection_value(connection, .HEADER_KIND, "Accept") else { return true }
        return !mediaTypes.contains { Self.names(accept, $0) }
    }

    /// Whether an `Accept` field's value holds `mediaType` (lower-cased), in any case.
    private static func names(_ accept: UnsafePointer<CChar>, _ mediaType: [UInt8]) -> Bool {
        let length = strlen(accept)
        guard length >= mediaType.count else { return false }
        return accept.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            (0...(length - mediaType.count)).contains { start in
                (0..<mediaType.count).allSatisfy { bytes[start + $0] | 0x20 == mediaType[$0] | 0x20 }
            }
        }
    }
}

/// The answers that handlers marked reusable (``Responder/answer(_:reusableWhile:)``), kept by
/// each polling thread and sent again to later requests for the same target without building
/// the request or calling the handler: a cached state document read again costs a lookup here
/// and a check that it is still current.
///
/// Each polling thread has its own table, so that reading it takes no lock, and sends an answer
/// it reuses as a native response of its own: libmicrohttpd counts a response's uses under the
/// response's lock, which polling threads sharing one response would take in turns on every
/// request (and a thread descheduled while holding it stalls the other). The table is
/// direct-mapped by a hash of the target seeded per process: a target whose slot another one
/// took is simply a miss, served by its handler and kept again.
// Exclusivity of `slots` is not checked at run time (@exclusivity(unchecked)): a table is used
// only by the polling thread that made it (``current``), one call at a time, and no access to
// `slots` spans a call that could reach the table again.
final class ReusedAnswers {
    /// One kept answer: an object, so that reading a slot retains one reference, not every
    /// field.
    final class Entry {
        /// The request target, as libmicrohttpd gave it.
        let target: [UInt8]
        /// The native response sent: at first the one shared by every thread sending this
        /// answer, then, once reused, this thread's own.
        var response: NativeResponse
        /// The answer to make this thread's own native response from, until it is made.
        var sharedAnswer: HTTPResponse?
        let status: Int
        /// The route that made the answer, for metrics and logs.
        let route: Int
        let isCurrent: Responder.Reuse

        init(target: [UInt8], response: NativeResponse, sharedAnswer: HTTPResponse, route: Int, isCurrent: @escaping Responder.Reuse) {
            self.target = target
            self.response = response
            self.sharedAnswer = sharedAnswer
            status = sharedAnswer.status
            self.route = route
            self.isCurrent = isCurrent
        }
    }

    /// Slots per polling thread (a power of two).
    static let capacity = 256

    @exclusivity(unchecked) private var slots = [Entry?](repeating: nil, count: ReusedAnswers.capacity)

    /// Each polling thread's table.
    private static let tables = PerThread<ReusedAnswers>()

    /// The seed of the slot hash, drawn once per process.
    private static let seed = UInt64.random(in: .min ... .max)

    /// The table of the calling thread, made on first use.
    static var current: ReusedAnswers {
        tables.current(orMake: ReusedAnswers.init)
    }

    /// The answer kept for `target` when it is still current; an entry that no longer is, is
    /// dropped.
    /// The first reuse makes this thread's own native response, with the `fixed` header fields;
    /// when libmicrohttpd cannot make it, the shared one serves on and `failed` is told why.
    func answer(for target: UnsafeBufferPointer<UInt8>, fixed: FixedResponseHeaders, failed: (MicroHTTPDError) -> Void) -> Entry? {
        let slot = Self.slot(of: target)
        guard let entry = slots[slot], Self.sameBytes(entry.target, target) else { return nil }
        guard entry.isCurrent() else {
            slots[slot] = nil
            return nil
        }
        if let answer = entry.sharedAnswer {
            entry.sharedAnswer = nil
            do {
                entry.response = try NativeResponse(answer, fixed: fixed)
            } catch {
                failed(error)
            }
        }
        return entry
    }

    /// Keeps an answer for `target`, in place of whatever its slot held; `response` is the
    /// answer's shared native response.
    func keep(
        _ answer: HTTPResponse, as response: NativeResponse, route: Int, for target: UnsafeBufferPointer<UInt8>,
        while isCurrent: @escaping Responder.Reuse
    ) {
        slots[Self.slot(of: target)] = Entry(target: Array(target), response: response, sharedAnswer: answer, route: route, isCurrent: isCurrent)
    }

    private static func sameBytes(_ kept: [UInt8], _ target: UnsafeBufferPointer<UInt8>) -> Bool {
        guard kept.count == target.count else { return false }
        return kept.withUnsafeBufferPointer { kept in
            guard let keptBytes = kept.baseAddress, let targetBytes = target.baseAddress else { return true }
            return memcmp(keptBytes, targetBytes, target.count) == 0
        }
    }

    /// The slot of a target: its bytes mixed eight at a time with the process's seed, then
    /// mixed once more (MurmurHash3's finalizer). A target someone made to share another's slot
    /// only misses the table.
    private static func slot(of target: UnsafeBufferPointer<UInt8>) -> Int {
        let bytes = UnsafeRawBufferPointer(target)
        var hash = seed ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        hash ^= tail
        hash = (hash ^ (hash >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        hash = (hash ^ (hash >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return Int(truncatingIfNeeded: hash ^ (hash >> 33)) & (capacity - 1)
    }
}
