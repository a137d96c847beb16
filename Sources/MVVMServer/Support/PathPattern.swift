/// A pattern of slash-separated segments: a route such as `/sessions/{id}/scenes/{key...}/input`,
/// or a scene key such as `film/{id}`.
///
/// `{name}` matches exactly one segment; `{name...}` matches one or more segments
/// (joined with `/`), as long as the rest of the pattern still matches after it.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    enum Component: Sendable, Hashable {
        case literal(String)
        case parameter(String)
        case multiSegmentParameter(String)
    }

    let components: [Component]
    /// The pattern as written.
    public let description: String

    /// Parses a pattern; every component between slashes is a literal or a parameter.
    public init(_ pattern: String) {
        description = pattern
        components = pattern.split(separator: "/").map { part in
            if part.hasPrefix("{") && part.hasSuffix("...}") {
                return .multiSegmentParameter(String(part.dropFirst().dropLast(4)))
            }
            if part.hasPrefix("{") && part.hasSuffix("}") {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
    }

    /// The pattern as OpenAPI writes paths: `{key...}` becomes `{key}`.
    public var openAPIPath: String {
        "/" + components.map { component in
            switch component {
            case .literal(let text): text
            case .parameter(let name), .multiSegmentParameter(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    /// The parameters when the decoded segments match this pattern, else `nil`.
    public func match(_ segments: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        return match(segments[...], components[...], &parameters) ? parameters : nil
    }

    private func match(_ segments: ArraySlice<String>, _ components: ArraySlice<Component>, _ parameters: inout [String: String]) -> Bool {
        guard let component = components.first else { return segments.isEmpty }
        guard let segment = segments.first else { return false }
        let restOfPattern = components.dropFirst()
        switch component {
        case .literal(let text):
            return segment == text && match(segments.dropFirst(), restOfPattern, &parameters)
        case .parameter(let name):
            guard !segment.isEmpty else { return false }
            parameters[name] = segment
            return match(segments.dropFirst(), restOfPattern, &parameters)
        case .multiSegmentParameter(let name):
            // Take as many segments as possible while leaving enough for the rest of the pattern.
            let minimumRest = restOfPattern.count
            var taken = segments.count - minimumRest
            while taken >= 1 {
                let candidate = segments.prefix(taken)
                if !candidate.contains(where: \.isEmpty) {
                    var attempt = parameters
                    if match(segments.dropFirst(taken), restOfPattern, &attempt) {
                        parameters = attempt
                        parameters[name] = candidate.joined(separator: "/")
                        return true
                    }
                }
                taken -= 1
            }
            return false
        }
    }
}
