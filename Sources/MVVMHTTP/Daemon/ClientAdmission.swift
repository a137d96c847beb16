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
            let allowed = host.withMemoryRebound(to: UInt8.self, capacity: length) { allows(hostField: UnsafeBufferPointer(start: $0, count: length)) }
            if allowed { return .sameOrigin }
        }
        return verdict(
            method: methodName(method),
            host: host.map { String(cString: $0) },
            origin: origin.map { String(cString: $0) },
            requestedMethod: MHD_lookup_connection_value(connection, .HEADER_KIND, "Access-Control-Request-Method").map { String(cString: $0) },
            requestedFields: MHD_lookup_connection_value(connection, .HEADER_KIND, "Access-Control-Request-Headers").map { String(cString: $0) })
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
