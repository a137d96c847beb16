/// A pattern of slash-separated segments: a route such as `/sessions/{id}/scenes/{key...}/input`,
/// or a scene key such as `film/{id}`.
///
/// `{name}` matches exactly one segment; `{name...}` matches one or more segments
/// (joined with `/`), as long as the rest of the pattern still matches after it.
package struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    enum Component: Sendable, Hashable {
        case literal(String)
        case parameter(String)
        case multiSegmentParameter(String)
    }

    let components: [Component]
    /// The position of the multi-segment parameter, if the pattern has one (found once here,
    /// not on every match).
    private let multiSegmentIndex: Int?
    /// The pattern as written.
    package let description: String

    /// Parses a pattern; every component between slashes is a literal or a parameter. `/` alone
    /// is the root path, whose one segment is empty.
    package init(_ pattern: String) {
        description = pattern
        guard pattern != "/" else {
            components = [.literal("")]
            multiSegmentIndex = nil
            return
        }
        components = pattern.split(separator: "/").map { part in
            if part.hasPrefix("{") && part.hasSuffix("...}") {
                return .multiSegmentParameter(String(part.dropFirst().dropLast(4)))
            }
            if part.hasPrefix("{") && part.hasSuffix("}") {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
        multiSegmentIndex = components.firstIndex { if case .multiSegmentParameter = $0 { true } else { false } }
    }

    /// The names of its parameters, in order.
    package var parameterNames: [String] {
        components.compactMap { component in
            switch component {
            case .literal: nil
            case .parameter(let name), .multiSegmentParameter(let name): name
            }
        }
    }

    /// The one path this pattern matches when it has no parameter (its literals joined with
    /// `/`), else `nil`.
    package var literalPath: String? {
        var literals: [String] = []
        for component in components {
            guard case .literal(let text) = component else { return nil }
            literals.append(text)
        }
        return literals.joined(separator: "/")
    }

    /// The pattern as OpenAPI writes paths: `{key...}` becomes `{key}`.
    package var openAPIPath: String {
        "/"
            + components.map { component in
                switch component {
                case .literal(let text): text
                case .parameter(let name), .multiSegmentParameter(let name): "{\(name)}"
                }
            }.joined(separator: "/")
    }

    /// The parameters when the decoded segments match this pattern, else `nil`.
    ///
    /// A pattern holds at most one multi-segment parameter, so matching needs no backtracking:
    /// the components before it match the first segments, the components after it match the
    /// last ones, and it takes what lies between (at least one segment).
    package func match(_ segments: [String]) -> [String: String]? {
        matchPairs(segments).map { Parameter.dictionary($0) }
    }

    /// A path parameter's name and its decoded value (a struct, not a tuple: an array of
    /// tuples is destroyed element by element through the tuple's run-time metadata).
    package struct Parameter {
        package let name: String
        package let value: String

        /// The parameters by name; a name given twice keeps its last value.
        package static func dictionary(_ parameters: [Parameter]) -> [String: String] {
            Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        }
    }

    /// ``match(_:)`` as name–value pairs in pattern order: no hashing, for the router's hot path.
    package func matchPairs(_ segments: [String]) -> [Parameter]? {
        let multi = multiSegmentIndex
        let before = multi ?? components.count
        let after = multi.map { components.count - $0 - 1 } ?? 0
        if multi == nil {
            guard segments.count == components.count else { return nil }
        } else {
            guard segments.count >= before + after + 1 else { return nil }
        }
        // Check literals and non-empty parameters first, without allocating.
        for index in 0..<before where !accepts(components[index], segments[index]) { return nil }
        for offset in 0..<after {
            let component = components[components.count - after + offset]
            if !accepts(component, segments[segments.count - after + offset]) { return nil }
        }
        var parameters: [Parameter] = []
        parameters.reserveCapacity(components.count - before - after + 2)
        for index in 0..<before {
            if case .parameter(let name) = components[index] { parameters.append(Parameter(name: name, value: segments[index])) }
        }
        if let multi, case .multiSegmentParameter(let name) = components[multi] {
            let middle = segments[before..<(segments.count - after)]
            guard !middle.contains(where: \.isEmpty) else { return nil }
            parameters.append(Parameter(name: name, value: middle.count == 1 ? middle[middle.startIndex] : middle.joined(separator: "/")))
        }
        for offset in 0..<after {
            if case .parameter(let name) = components[components.count - after + offset] {
                parameters.append(Parameter(name: name, value: segments[segments.count - after + offset]))
            }
        }
        return parameters
    }

    /// How many segments a path must have to match: exactly as many as the components, or
    /// at least that many when a multi-segment parameter takes the rest.
    package var segmentCounts: ClosedRange<Int> {
        multiSegmentIndex == nil ? components.count...components.count : components.count...Int.max
    }

    private func accepts(_ component: Component, _ segment: String) -> Bool {
        switch component {
        case .literal(let text): segment == text
        case .parameter: !segment.isEmpty
        case .multiSegmentParameter: true
        }
    }
}
