internal import CMicroHTTPD

// The server's LocalClientPolicy applied to a request whose header fields have arrived, reading
// them where libmicrohttpd keeps them: the common request (a default host, no Origin) makes no
// string.

extension LocalClientPolicy {
    /// What to do with the request on `connection`, sent with `method`.
    func verdict(on connection: OpaquePointer, method: UnsafePointer<CChar>) -> Verdict {
        let host = MHD_lookup_connection_value(connection, .HEADER_KIND, "Host")
        let origin = MHD_lookup_connection_value(connection, .HEADER_KIND, "Origin")
        if origin == nil {
            guard let host else { return .sameOrigin }
            let length = strlen(host)
            let allowed = host.withMemoryRebound(to: UInt8.self, capacity: length) {
                allows(hostField: UnsafeBufferPointer(start: $0, count: length))
            }
            if allowed { return .sameOrigin }
        }
        let methodText = methodName(method)
        // A preflight's own fields, read only for a preflight.
        func preflightField(_ name: String) -> String? {
            guard methodText == "OPTIONS" else { return nil }
            return MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
        }
        return verdict(
            method: methodText,
            host: host.map { String(cString: $0) },
            origin: origin.map { String(cString: $0) },
            requestedMethod: preflightField("Access-Control-Request-Method"),
            requestedFields: preflightField("Access-Control-Request-Headers"))
    }
}

extension HTTPResponse {
    /// This answer with the CORS fields for `origin`, when the request came from an allowed
    /// origin other than the server's own; unchanged otherwise.
    func crossOrigin(_ origin: String?) -> HTTPResponse {
        guard let origin else { return self }
        var copy = self
        copy.headers += LocalClientPolicy.crossOriginFields(for: origin)
        return copy
    }
}
