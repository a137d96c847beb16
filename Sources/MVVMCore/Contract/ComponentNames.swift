import Foundation
import MVVMJSON

/// The names of the components of an app's contract, made from its Swift types' names so that
/// the same app gives the same names at every start and on every machine.
///
/// The rule: a type's component is its name as Swift writes it, with the enclosing types and
/// without the module (`FilmViewModel.Output`). Where two types of different modules share
/// that name, each keeps its module (`Scenes.FilmViewModel.Output`); where they still share it
/// (private types of one module), they are numbered in the order of Swift's full names
/// (`Cell`, `Cell_2`). Characters other than letters, digits, `.`, `-` and `_` (in generic
/// arguments) become `_`.
package struct ComponentNames: Sendable {
    /// How references look until names are final: this prefix and the type's full name.
    static let placeholderPrefix = "#/components/schemas/"

    private let names: [String: String]

    /// The names of the types of these full names (`String(reflecting:)`).
    init(reflectedNames: [String]) {
        let unique = Array(Set(reflectedNames)).sorted()
        var byShort: [String: [String]] = [:]
        for name in unique { byShort[Self.sanitized(Self.withoutModule(Self.cleaned(name))), default: []].append(name) }
        var names: [String: String] = [:]
        for (short, full) in byShort {
            if full.count == 1 {
                names[full[0]] = short
                continue
            }
            var byQualified: [String: [String]] = [:]
            for name in full { byQualified[Self.sanitized(Self.cleaned(name)), default: []].append(name) }
            for (qualified, sharing) in byQualified {
                for (index, name) in sharing.sorted().enumerated() { names[name] = index == 0 ? qualified : "\(qualified)_\(index + 1)" }
            }
        }
        self.names = names
    }

    /// The final name of the type of this full name.
    func name(of reflectedName: String) -> String {
        names[reflectedName] ?? Self.sanitized(Self.cleaned(reflectedName))
    }

    /// `schema` with its references to types named finally.
    package func rewrite(_ schema: JSONValue) -> JSONValue {
        switch schema {
        case .object(let members):
            var rewritten = members.mapValues(rewrite)
            if case .string(let reference)? = members["$ref"], reference.hasPrefix(Self.placeholderPrefix) {
                rewritten["$ref"] = .string(Self.placeholderPrefix + name(of: String(reference.dropFirst(Self.placeholderPrefix.count))))
            }
            return .object(rewritten)
        case .array(let items):
            return .array(items.map(rewrite))
        default:
            return schema
        }
    }

    /// A full name without the parts Swift adds for private and local types:
    /// `(Cell in _4F2A…)` is `Cell`, `(unknown context at $1f2e).` is dropped.
    static func cleaned(_ reflectedName: String) -> String {
        var name = reflectedName
        while let range = name.range(of: #"\(unknown context at \$[0-9a-fA-F]+\)\."#, options: .regularExpression) {
            name.removeSubrange(range)
        }
        while let range = name.range(of: #"\(([^()]+) in _[0-9A-F]+\)"#, options: .regularExpression) {
            let inner = name[range].dropFirst().prefix { $0 != " " }
            name.replaceSubrange(range, with: inner)
        }
        return name
    }

    /// The name without its leading module (`Scenes.FilmViewModel.Output` is `FilmViewModel.Output`).
    private static func withoutModule(_ name: String) -> String {
        let generic = name.firstIndex(of: "<") ?? name.endIndex
        guard let dot = name[..<generic].firstIndex(of: ".") else { return name }
        return String(name[name.index(after: dot)...])
    }

    /// `name` with the characters a component name may not hold (any but letters, digits,
    /// `.`, `-` and `_`) as `_`.
    package static func sanitized(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    }
}
