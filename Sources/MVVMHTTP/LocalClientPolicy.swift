/// Which requests a local server answers, by their `Host` and `Origin` fields, and the CORS
/// answers it gives the origins it was told to trust.
///
/// A server on loopback is reached by any web page open in the developer's browser: through a
/// domain name that its owner re-points at 127.0.0.1 (DNS rebinding), the page's requests
/// carry that name as their `Host`; through a plain cross-site request, they carry the page's
/// `Origin`. So a request is answered only when
/// - its `Host` (port aside) is an IP literal, `localhost`, a name under `.localhost`, or a
///   name in ``HTTPServerConfiguration/allowedHosts`` (a request without `Host`, HTTP/1.0, is
///   answered too: no browser sends one);
/// - and it has no `Origin`, or its `Origin` is the server's own (the scheme, then the `Host`
///   it was sent to), or one in ``HTTPServerConfiguration/allowedOrigins``.
///
/// A request from an allowed origin other than the server's own is a cross-origin request that
/// the browser lets its page read only with CORS fields: its answer gets them
/// (``crossOriginFields(for:)``), and its preflight is answered here
/// (``verdict(method:host:origin:requestedMethod:requestedFields:)``).
package struct LocalClientPolicy: Sendable {
    /// The names allowed beside the default ones, lower-cased.
    private let hostNames: Set<String>
    /// The allowed suffixes (`.example.test` for `*.example.test`), lower-cased.
    private let hostSuffixes: [String]
    /// Whether any host is allowed (`*` among the allowed hosts).
    private let allowsAnyHost: Bool
    /// The allowed origins, normalized (``normalizedOrigin(_:)``).
    private let origins: Set<String>

    /// The methods a preflight allows: every method the API routes.
    static let allowedMethods = "GET, HEAD, POST, PUT, PATCH, DELETE"
    /// The answer fields a cross-origin page may read besides the CORS-safelisted ones.
    static let exposedFields = "ETag, Location, MVVM-Instance, Retry-After, Allow"
    /// How long a browser may keep a preflight's answer, in seconds.
    static let preflightMaxAgeSeconds = 600

    /// What the server does with one request.
    package enum Verdict {
        /// Answer it as usual: no `Origin`, or the server's own.
        case sameOrigin
        /// Answer it with the CORS fields for this allowed origin (as sent).
        case crossOrigin(String)
        /// A preflight from an allowed origin: answer it with this (204 and the CORS fields).
        case preflight(HTTPResponse)
        /// Refuse it with this problem.
        case refused(HTTPError)
    }

    /// The policy that allows the default hosts and the server's own origin, plus
    /// `allowedHosts` (names, `*.name` for every name under `name`, or `*` for any host) and
    /// `allowedOrigins` (`scheme://host[:port]`).
    /// - Throws: ``Refusal`` naming the first entry that is not a host name or an origin.
    package init(allowedHosts: [String], allowedOrigins: [String]) throws(Refusal) {
        var names = Set<String>()
        var suffixes: [String] = []
        var any = false
        for entry in allowedHosts {
            let name = entry.lowercased()
            if name == "*" {
                any = true
            } else if name.hasPrefix("*."), Self.isHostName(name.dropFirst(2)) {
                suffixes.append(String(name.dropFirst()))
            } else if Self.isHostName(Substring(name)) {
                names.insert(name)
            } else {
                throw Refusal(kind: .host, entry: entry)
            }
        }
        var origins = Set<String>()
        for entry in allowedOrigins {
            guard let origin = Self.normalizedOrigin(entry) else { throw Refusal(kind: .origin, entry: entry) }
            origins.insert(origin)
        }
        hostNames = names
        hostSuffixes = suffixes
        allowsAnyHost = any
        self.origins = origins
    }

    /// An allowed host or origin that is not one.
    package struct Refusal: Error, Equatable {
        /// Which list the entry was in.
        package enum Kind: Sendable { case host, origin }
        /// Which list the entry was in.
        package let kind: Kind
        /// The entry, as given.
        package let entry: String
    }

    /// What to do with a request sent with `method`, its `Host` and `Origin` fields (`nil` when
    /// absent) and, for a preflight, its `Access-Control-Request-Method` and
    /// `Access-Control-Request-Headers`.
    package func verdict(method: String, host: String?, origin: String?, requestedMethod: String? = nil, requestedFields: String? = nil) -> Verdict {
        if let host, !allows(host: host) {
            return .refused(
                HTTPError(
                    .hostNotAllowed,
                    detail: """
                        This server does not answer requests for the host '\(host)'. It answers IP addresses, \
                        localhost and names under .localhost; allow another name with --allowed-host NAME \
                        (or MVVM_ALLOWED_HOSTS).
                        """))
        }
        guard let origin else { return .sameOrigin }
        let isOwn = host.map { Self.isOwnOrigin(origin, host: $0) } ?? false
        guard isOwn || Self.normalizedOrigin(origin).map(origins.contains) == true else {
            return .refused(
                HTTPError(
                    .originNotAllowed,
                    detail: """
                        This server does not answer requests from pages of the origin '\(origin)'. Allow it \
                        with --allowed-origin \(origin) (or MVVM_ALLOWED_ORIGINS).
                        """))
        }
        if method == "OPTIONS", requestedMethod != nil {
            var fields: [(name: String, value: String)] = [
                ("Access-Control-Allow-Origin", origin),
                ("Access-Control-Allow-Methods", Self.allowedMethods),
                ("Access-Control-Max-Age", String(Self.preflightMaxAgeSeconds)),
                ("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"),
            ]
            if let requestedFields, !requestedFields.isEmpty { fields.append(("Access-Control-Allow-Headers", requestedFields)) }
            return .preflight(HTTPResponse(status: 204, headers: fields))
        }
        return isOwn ? .sameOrigin : .crossOrigin(origin)
    }

    /// The fields of an answer to a cross-origin request from the allowed `origin`.
    package static func crossOriginFields(for origin: String) -> [(name: String, value: String)] {
        [("Access-Control-Allow-Origin", origin), ("Access-Control-Expose-Headers", exposedFields), ("Vary", "Origin")]
    }

    /// Whether a `Host` field's value names a host this server answers (its port aside).
    package func allows(host field: String) -> Bool {
        var field = field
        return field.withUTF8 { allows(hostField: $0) }
    }

    /// Whether a `Host` field's bytes name a host this server answers (its port aside); the
    /// default hosts are recognized without making a string.
    func allows(hostField field: UnsafeBufferPointer<UInt8>) -> Bool {
        if allowsAnyHost { return true }
        guard let end = Self.nameEnd(field) else { return false }
        let name = UnsafeBufferPointer(rebasing: field[..<end])
        if Self.isIPLiteral(name) || Self.isLocalhost(name) { return true }
        guard !hostNames.isEmpty || !hostSuffixes.isEmpty else { return false }
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        return hostNames.contains(lowered) || hostSuffixes.contains { lowered.hasSuffix($0) }
    }

    /// Where the host of a `Host` field ends (`[::1]` keeps its brackets): at its `:port`, or at
    /// the end; `nil` when the port is not digits or a bracket is not closed.
    static func nameEnd(_ field: UnsafeBufferPointer<UInt8>) -> Int? {
        let colon = UInt8(ascii: ":")
        let end: Int
        if field.first == UInt8(ascii: "[") {
            guard let close = field.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            end = close + 1
            guard end == field.count || field[end] == colon else { return nil }
        } else {
            end = field.lastIndex(of: colon) ?? field.count
        }
        guard end == field.count || field[(end + 1)...].allSatisfy(isDigit) else { return nil }
        return end
    }

    /// Whether `name` is an IPv4 address (four decimal numbers from 0 to 255, dot-separated)
    /// or a bracketed IPv6 one (hexadecimal groups and colons, with an optional IPv4 tail).
    static func isIPLiteral(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        if name.count > 2, name.first == UInt8(ascii: "["), name.last == UInt8(ascii: "]") {
            let inner = name[1..<(name.count - 1)]
            return inner.contains(UInt8(ascii: ":")) && inner.allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        }
        var parts = 0
        var value = 0
        var digits = 0
        for byte in name {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                parts += 1
                (value, digits) = (0, 0)
            } else if isDigit(byte) {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard digits <= 3, value <= 255 else { return false }
            } else {
                return false
            }
        }
        return parts == 3 && digits > 0
    }

    /// Whether `name` is `localhost` or a name under `.localhost`, in any case.
    static func isLocalhost(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let suffix = "localhost".utf8
        guard name.count >= suffix.count else { return false }
        let tail = name[(name.count - suffix.count)...]
        guard zip(tail, suffix).allSatisfy({ $0 | 0x20 == $1 }) else { return false }
        return name.count == suffix.count || (name.count > suffix.count + 1 && name[name.count - suffix.count - 1] == UInt8(ascii: "."))
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    /// Whether `name` is a DNS name: dot-separated labels of letters, digits, `-` and `_`.
    static func isHostName(_ name: Substring) -> Bool {
        !name.isEmpty
            && name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
                !label.isEmpty && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            }
    }

    /// Whether `origin` is the server's own: `http://` or `https://` followed by the `Host` the
    /// request was sent to (compared without case).
    static func isOwnOrigin(_ origin: String, host: String) -> Bool {
        let lowered = origin.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            return lowered.dropFirst(scheme.count) == host.lowercased()
        }
        return false
    }

    /// An origin as browsers send it, lower-cased: `http` or `https`, `://`, a host (a name, an
    /// IPv4 address or a bracketed IPv6 one) and an optional port; a trailing `/` is dropped.
    /// `nil` for anything else (`*`, `null`, a path).
    package static func normalizedOrigin(_ text: String) -> String? {
        var lowered = text.lowercased()
        if lowered.hasSuffix("/") { lowered.removeLast() }
        guard let schemeEnd = lowered.range(of: "://") else { return nil }
        let scheme = lowered[..<schemeEnd.lowerBound]
        guard scheme == "http" || scheme == "https" else { return nil }
        var authority = String(lowered[schemeEnd.upperBound...])
        let isValid = authority.withUTF8 { field -> Bool in
            guard let end = nameEnd(field), end > 0 else { return false }
            let name = UnsafeBufferPointer(rebasing: field[..<end])
            return isIPLiteral(name) || isHostName(Substring(decoding: name, as: UTF8.self))
        }
        return isValid ? lowered : nil
    }
}
