import Foundation
import MVVMJSON

/// One difference between an app's committed contract and its current one, and whether a
/// client made from the committed one breaks.
///
/// Breaking: an operation, a schema, a member, an action's case or an enum value removed; a
/// type or a reference changed; a member newly required or no longer required. Not breaking:
/// an operation, a schema, an optional member, a case or an enum value added.
public struct ContractChange: Sendable, Equatable, CustomStringConvertible {
    /// Where: an operation (`GET /sessions/{session}/scenes/films`) or a schema and the path
    /// of a member in it (`schema FilmsViewModel.Output, /properties/count`).
    public let location: String
    /// What changed.
    public let change: String
    /// Whether a client made from the committed contract breaks.
    public let breaksClients: Bool

    /// `breaks clients: <location>: <change>`, or `compatible: …`.
    public var description: String {
        "\(breaksClients ? "breaks clients" : "compatible"): \(location): \(change)"
    }

    /// The differences from the contract `committed` to `current` (OpenAPI documents), the
    /// breaking ones first.
    static func between(_ committed: JSONValue, _ current: JSONValue) -> [ContractChange] {
        var changes: [ContractChange] = []
        let old = committed.objectValue ?? [:]
        let new = current.objectValue ?? [:]
        let oldOperations = operations(old)
        let newOperations = operations(new)
        for name in oldOperations.subtracting(newOperations).sorted() {
            changes.append(.init(location: name, change: "removed", breaksClients: true))
        }
        for name in newOperations.subtracting(oldOperations).sorted() { changes.append(.init(location: name, change: "added", breaksClients: false)) }
        let oldSchemas = schemas(old)
        let newSchemas = schemas(new)
        for name in oldSchemas.keys.sorted() {
            let location = "schema \(name)"
            guard let now = newSchemas[name] else {
                changes.append(.init(location: location, change: "removed", breaksClients: true))
                continue
            }
            if let before = oldSchemas[name] { compare(before, now, location: location, at: "", into: &changes) }
        }
        for name in newSchemas.keys.sorted() where oldSchemas[name] == nil {
            changes.append(.init(location: "schema \(name)", change: "added", breaksClients: false))
        }
        return changes.filter(\.breaksClients) + changes.filter { !$0.breaksClients }
    }

    private static func operations(_ document: [String: JSONValue]) -> Set<String> {
        var names = Set<String>()
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for method in (item.objectValue ?? [:]).keys where ["get", "post", "put", "patch", "delete"].contains(method) {
                names.insert("\(method.uppercased()) \(path)")
            }
        }
        return names
    }

    private static func schemas(_ document: [String: JSONValue]) -> [String: JSONValue] {
        document["components"]?.objectValue?["schemas"]?.objectValue ?? [:]
    }

    private static func compare(_ old: JSONValue, _ new: JSONValue, location: String, at path: String, into changes: inout [ContractChange]) {
        guard old != new else { return }
        let before = old.objectValue ?? [:]
        let after = new.objectValue ?? [:]
        func note(_ change: String, breaks: Bool) {
            changes.append(.init(location: path.isEmpty ? location : "\(location), \(path)", change: change, breaksClients: breaks))
        }
        if before["$ref"] != after["$ref"] {
            note("refers to \(brief(after["$ref"])) instead of \(brief(before["$ref"]))", breaks: true)
            return
        }
        if types(before) != types(after) {
            note("is \(types(after).sorted().joined(separator: " or ")) instead of \(types(before).sorted().joined(separator: " or "))", breaks: true)
        }
        if case .array(let oldValues)? = before["enum"] {
            let newValues: [JSONValue] = if case .array(let values)? = after["enum"] { values } else { [] }
            for value in oldValues where !newValues.contains(value) { note("enum value \(literal(value)) removed", breaks: true) }
            for value in newValues where !oldValues.contains(value) { note("enum value \(literal(value)) added", breaks: false) }
        }
        compareMembers(before, after, path: path, location: location, into: &changes)
        for keyword in ["items", "additionalProperties"] {
            if let oldItems = before[keyword], let newItems = after[keyword] {
                compare(oldItems, newItems, location: location, at: "\(path)/\(keyword)", into: &changes)
            }
        }
        for keyword in ["oneOf", "anyOf"] {
            let oldChoices = choices(before[keyword])
            let newChoices = choices(after[keyword])
            for (name, choice) in oldChoices {
                guard let now = newChoices[name] else {
                    note("case \(name) removed", breaks: true)
                    continue
                }
                compare(choice, now, location: location, at: "\(path)/\(keyword)/\(name)", into: &changes)
            }
            for name in newChoices.keys.sorted() where oldChoices[name] == nil { note("case \(name) added", breaks: false) }
        }
    }

    private static func compareMembers(
        _ before: [String: JSONValue], _ after: [String: JSONValue], path: String, location: String, into changes: inout [ContractChange]
    ) {
        let oldProperties = before["properties"]?.objectValue ?? [:]
        let newProperties = after["properties"]?.objectValue ?? [:]
        let oldRequired = required(before)
        let newRequired = required(after)
        func note(_ member: String, _ change: String, breaks: Bool) {
            changes.append(.init(location: "\(location), \(path)/properties/\(member)", change: change, breaksClients: breaks))
        }
        for name in oldProperties.keys.sorted() {
            guard let now = newProperties[name] else {
                note(name, "removed", breaks: true)
                continue
            }
            if let was = oldProperties[name] { compare(was, now, location: location, at: "\(path)/properties/\(name)", into: &changes) }
            if newRequired.contains(name), !oldRequired.contains(name) { note(name, "newly required", breaks: true) }
            if oldRequired.contains(name), !newRequired.contains(name) { note(name, "no longer required", breaks: true) }
        }
        for name in newProperties.keys.sorted() where oldProperties[name] == nil {
            let isRequired = newRequired.contains(name)
            note(name, isRequired ? "added, required" : "added, optional", breaks: isRequired)
        }
    }

    private static func types(_ schema: [String: JSONValue]) -> Set<String> {
        switch schema["type"] {
        case .string(let type)?: [type]
        case .array(let types)?: Set(types.compactMap(\.stringValue))
        default: []
        }
    }

    private static func required(_ schema: [String: JSONValue]) -> Set<String> {
        guard case .array(let names)? = schema["required"] else { return [] }
        return Set(names.compactMap(\.stringValue))
    }

    /// The choices of a `oneOf` or `anyOf`, each named by its one required member (an enum's
    /// case) when it has one, else by its position.
    private static func choices(_ value: JSONValue?) -> [String: JSONValue] {
        guard case .array(let choices)? = value else { return [:] }
        var named: [String: JSONValue] = [:]
        for (index, choice) in choices.enumerated() {
            let names = choice.objectValue.map(required) ?? []
            named[names.count == 1 ? names.first ?? "" : "#\(index)"] = choice
        }
        return named
    }

    /// A value as JSON writes it.
    private static func literal(_ value: JSONValue) -> String {
        String(decoding: value.jsonData, as: UTF8.self)
    }

    private static func brief(_ value: JSONValue?) -> String {
        switch value {
        case .string(let text)?: text
        case nil: "nothing"
        case let value?: literal(value)
        }
    }
}

extension TestServer {
    /// The differences between the contract committed at `file` (written by
    /// `<app> --contract > openapi.json`) and this app's current one: empty when the file is
    /// current. Each says whether a client made from the committed contract breaks.
    /// ```swift
    /// @Test func contractIsCommitted() throws {
    ///     let file = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../openapi.json")
    ///     let changes = try TestServer(catalogue: TodoApp.catalogue).contractChanges(since: file)
    ///     #expect(changes.isEmpty, "run `todo --contract > openapi.json`: \(changes)")
    /// }
    /// ```
    /// - Throws: when the file cannot be read or holds no JSON.
    public func contractChanges(since file: URL) throws -> [ContractChange] {
        guard let committed = JSONValue(json: try Data(contentsOf: file)) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: file.path])
        }
        guard let current = JSONValue(json: Application.contract(of: catalogue)) else { return [] }
        return ContractChange.between(committed, current)
    }
}
