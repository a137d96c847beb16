import Foundation
import MVVMCore
import MVVMJSON

/// An app's own contract, `GET /openapi.json`: the framework's operations, and typed operations
/// on each scene's own paths, whose schemas come from the scene's Swift types
/// (``TypeDescriber``).
///
/// Each addressable scene `films` with the key pattern `film/{id}` gets, on
/// `/sessions/{session}/scenes/film/{id}`:
/// - `getFilmsState`: the state document, with the scene's `input` and `output`;
/// - `setFilmsInput` (a scene with input members): every member optional, as inputs merge;
/// - `getFilmsSnapshot` (a scene with a snapshot): its items typed by their `cell` when the
///   scene declares its cells;
/// - `performFilmsSelect`, one per action: the body is the action's arguments.
///
/// Operation ids are the operation's verb, the scene's name and the action's name in camel
/// case; where two would be the same, the later (in the order scenes are declared) gets `_2`.
/// The scene's schemas are components named `Scene-<name>-State`, `Scene-<name>-InputPatch`
/// and `Scene-<name>-Action-<action>`; the Swift types' components follow ``ComponentNames``.
/// `POST /sessions` links to each of these operations (`session` from its answer's `id`), so
/// that stateful tools chain them.
struct AppContract {
    /// The document.
    let document: JSONValue
    /// What could not be described exactly, each naming its type.
    let warnings: [String]

    /// The contract of `catalogue`, built on the framework's own document.
    init(catalogue: SceneCatalogue, framework: JSONValue) {
        var document = framework.objectValue ?? [:]
        let describer = TypeDescriber()
        var builder = Builder(framework: document)
        for scene in catalogue.scenes where scene.isAddressable {
            builder.add(scene, schemas: scene.schemas(describer))
        }
        let (described, names) = describer.finish()
        var schemas = document["components"]?.objectValue?["schemas"]?.objectValue ?? [:]
        for (name, schema) in builder.schemas { schemas[name] = names.rewrite(schema) }
        // The Swift types' schemas that an operation refers to (an action enum's own is not:
        // each action's body is its case's payload).
        let referenced = Self.references(from: .object(schemas), within: described)
        for (name, schema) in described where referenced.contains(name) { schemas[name] = schema }
        var allComponents = document["components"]?.objectValue ?? [:]
        allComponents["schemas"] = .object(schemas)
        document["components"] = .object(allComponents)
        var paths = document["paths"]?.objectValue ?? [:]
        for (path, item) in builder.paths { paths[path] = item }
        paths = Self.linkingSessions(paths, to: builder.sceneOperations)
        document["paths"] = .object(paths)
        document["info"] = Self.info(document["info"])
        self.document = .object(document)
        warnings = describer.warnings
    }

    /// The document's bytes: keys sorted, so that the same app gives the same bytes.
    var data: Data {
        document.jsonData
    }

    private static func info(_ framework: JSONValue?) -> JSONValue {
        var info = framework?.objectValue ?? [:]
        let description = info["description"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? ""
        info["description"] = .string(
            """
            This app's contract: the framework's operations, and each scene's own operations on \
            its paths, typed from the scene's Swift types (`tags: [app]`).

            \(description)
            """)
        return .object(info)
    }

    /// The names of the components of `components` that `value` refers to, directly or through
    /// one another.
    private static func references(from value: JSONValue, within components: [String: JSONValue]) -> Set<String> {
        var found = Set<String>()
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .object(let members):
                if let reference = members["$ref"]?.stringValue, let name = reference.split(separator: "/").last.map(String.init),
                    let target = components[name], found.insert(name).inserted
                {
                    pending.append(target)
                }
                pending.append(contentsOf: members.values)
            case .array(let items):
                pending.append(contentsOf: items)
            default:
                break
            }
        }
        return found
    }

    /// `paths` with `POST /sessions` linked to each scene operation.
    private static func linkingSessions(_ paths: [String: JSONValue], to sceneOperations: [String]) -> [String: JSONValue] {
        guard case .object(var item)? = paths["/sessions"], case .object(var post)? = item["post"],
            case .object(var responses)? = post["responses"], case .object(var created)? = responses["201"]
        else { return paths }
        var links = created["links"]?.objectValue ?? [:]
        for operation in sceneOperations {
            links[operation] = .object([
                "operationId": .string(operation),
                "parameters": .object(["session": .string("$response.body#/id")]),
            ])
        }
        created["links"] = .object(links)
        responses["201"] = .object(created)
        post["responses"] = .object(responses)
        item["post"] = .object(post)
        var linked = paths
        linked["/sessions"] = .object(item)
        return linked
    }
}
