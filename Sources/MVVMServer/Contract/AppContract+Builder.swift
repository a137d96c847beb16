import MVVMCore
import MVVMJSON

extension AppContract {
    /// Builds each scene's operations from the framework's generic ones (their parameters,
    /// headers and problem answers), with the scene's own paths and schemas.
    struct Builder {
        /// The framework's operations that the scenes' own are made from.
        private let stateTemplate, inputTemplate, snapshotTemplate, actionTemplate: [String: JSONValue]
        /// The framework's session path parameter, renamed `session`.
        private let sessionParameter: JSONValue
        /// The framework's schemas, and its state document's.
        private let frameworkSchemas: [String: JSONValue]
        private let stateDocument: [String: JSONValue]
        /// The framework's operation ids, which no scene's may take.
        private var usedOperationIDs: Set<String>

        /// The scenes' paths.
        private(set) var paths: [String: JSONValue] = [:]
        /// The scenes' own schemas (state, input patch, action bodies), by component name.
        private(set) var schemas: [String: JSONValue] = [:]
        /// The id of each scene operation, in the order scenes are declared.
        private(set) var sceneOperations: [String] = []

        init(framework: [String: JSONValue]) {
            let paths = framework["paths"]?.objectValue ?? [:]
            func operation(_ path: String, _ method: String) -> [String: JSONValue] {
                paths[path]?.objectValue?[method]?.objectValue ?? [:]
            }
            stateTemplate = operation("/sessions/{id}/scenes/{key}", "get")
            inputTemplate = operation("/sessions/{id}/scenes/{key}/input", "post")
            snapshotTemplate = operation("/sessions/{id}/scenes/{key}/snapshot", "get")
            actionTemplate = operation("/sessions/{id}/scenes/{key}/actions/{action}", "post")
            let components = framework["components"]?.objectValue
            var session = components?["parameters"]?.objectValue?["SessionID"]?.objectValue ?? [:]
            session["name"] = .string("session")
            sessionParameter = .object(session)
            frameworkSchemas = components?["schemas"]?.objectValue ?? [:]
            stateDocument = frameworkSchemas["StateDocument"]?.objectValue ?? [:]
            usedOperationIDs = Set(
                paths.values.flatMap { item in
                    (item.objectValue ?? [:]).values.compactMap { $0.objectValue?["operationId"]?.stringValue }
                })
        }

        /// Adds the operations of `scene`, whose types `schemas` describes; each answer links to
        /// every operation of the scene on the same session and key, so that stateful tools
        /// chain them.
        mutating func add(_ scene: Scene, schemas sceneSchemas: SceneSchemas) {
            let base = "/sessions/{session}/scenes" + scene.keyPattern.openAPIPath.replacingOccurrences(of: "{session}", with: "{key_session}")
            let parameters = JSONValue.array([sessionParameter] + scene.keyPattern.parameterNames.map { Self.keyParameter($0) })
            let operations = self.operations(of: scene, schemas: sceneSchemas)
            let links = Self.links(
                to: operations.compactMap { $0.fields["operationId"]?.stringValue }, keyParameters: scene.keyPattern.parameterNames)
            for (path, method, fields) in operations {
                paths[base + path] = .object(["parameters": parameters, method: .object(Self.linking(fields, to: links))])
            }
        }

        /// Links from an answer to each of `operations`, on the same session and key.
        private static func links(to operations: [String], keyParameters: [String]) -> JSONValue {
            var parameters: [String: JSONValue] = ["session": .string("$request.path.session")]
            for name in keyParameters {
                let parameter = name == "session" ? "key_session" : name
                parameters[parameter] = .string("$request.path.\(parameter)")
            }
            return .object(
                Dictionary(
                    uniqueKeysWithValues: operations.map {
                        ($0, JSONValue.object(["operationId": .string($0), "parameters": .object(parameters)]))
                    }))
        }

        /// `operation` with `links` on its 200 answer.
        private static func linking(_ operation: [String: JSONValue], to links: JSONValue) -> [String: JSONValue] {
            guard case .object(var responses)? = operation["responses"], case .object(var ok)? = responses["200"] else { return operation }
            ok["links"] = links
            responses["200"] = .object(ok)
            var linked = operation
            linked["responses"] = .object(responses)
            return linked
        }

        /// The operations of `scene`, each with its path below the scene's key and its method;
        /// its schemas are added to ``schemas``.
        private mutating func operations(of scene: Scene, schemas sceneSchemas: SceneSchemas) -> [(
            path: String, method: String, fields: [String: JSONValue]
        )] {
            let name = scene.name
            let stateName = SceneComponentNames.state(name)
            schemas[stateName] = state(of: scene, sceneSchemas)
            let stateReference = Self.reference(stateName)
            var operations: [(path: String, method: String, fields: [String: JSONValue])] = []
            operations.append(
                (
                    "", "get",
                    operation(
                        stateTemplate, id: operationID("get", name, "state"), summary: "The state of the `\(name)` scene.", answer: stateReference)
                ))
            if !scene.inputMembers.isEmpty {
                let patchName = SceneComponentNames.inputPatch(name)
                schemas[patchName] = sceneSchemas.inputPatch
                var input = operation(
                    inputTemplate, id: operationID("set", name, "input"), summary: "Merges members into the `\(name)` scene's input.",
                    answer: stateReference)
                input["requestBody"] = Self.body(Self.reference(patchName), required: true)
                operations.append(("/input", "post", input))
            }
            if scene.hasSnapshot {
                let typed = sceneSnapshot(name, cells: sceneSchemas.cells)
                operations.append(
                    (
                        "/snapshot", "get",
                        operation(
                            snapshotTemplate, id: operationID("get", name, "snapshot"),
                            summary: "The snapshot of the `\(name)` scene, or its changes since a version.", answer: typed)
                    ))
            }
            let result = JSONValue.object([
                "allOf": .array([
                    stateReference,
                    .object([
                        "type": .string("object"),
                        "properties": .object(["navigation": Self.reference("Navigation")]),
                    ]),
                ])
            ])
            for action in scene.actions {
                let bodyName = SceneComponentNames.action(name, action)
                let body = sceneSchemas.actionBodies[action] ?? .object(["type": .string("object")])
                schemas[bodyName] = body
                var perform = operation(
                    actionTemplate, id: operationID("perform", name, action), summary: "Performs the `\(action)` action of the `\(name)` scene.",
                    answer: result)
                perform["requestBody"] = Self.body(Self.reference(bodyName), required: body.objectValue?["required"] != nil)
                operations.append(("/actions/" + action, "post", perform))
            }
            return operations
        }

        /// The answer of a scene's snapshot operation when the scene declares its cells: its
        /// snapshot with items typed by `cell` (`Scene-<name>-Snapshot`, each cell
        /// `Scene-<name>-Cell-<cell>`), or its changes, whose inserted and changed items are typed
        /// the same way (`Scene-<name>-SnapshotChanges`); `nil` (the framework's answer) when it
        /// declares none.
        private mutating func sceneSnapshot(_ name: String, cells: [(name: String, item: JSONValue)]) -> JSONValue? {
            guard !cells.isEmpty else { return nil }
            var mapping: [String: JSONValue] = [:]
            var choices: [JSONValue] = []
            for cell in cells {
                let component = SceneComponentNames.cell(name, cell.name)
                schemas[component] = cell.item
                mapping[cell.name] = .string("#/components/schemas/\(component)")
                choices.append(Self.reference(component))
            }
            var section = frameworkSchemas["SnapshotSection"]?.objectValue ?? [:]
            var sectionMembers = section["properties"]?.objectValue ?? [:]
            let items = JSONValue.object([
                "type": .string("array"),
                "items": .object([
                    "oneOf": .array(choices),
                    "discriminator": .object(["propertyName": .string("cell"), "mapping": .object(mapping)]),
                ]),
            ])
            sectionMembers["items"] = items
            section["properties"] = .object(sectionMembers)
            var snapshot = frameworkSchemas["Snapshot"]?.objectValue ?? [:]
            var members = snapshot["properties"]?.objectValue ?? [:]
            members["sections"] = .object(["type": .string("array"), "items": .object(section)])
            snapshot["properties"] = .object(members)
            snapshot["description"] = .string("The snapshot of the `\(name)` scene, its items typed by their `cell`.")
            let component = SceneComponentNames.snapshot(name)
            schemas[component] = .object(snapshot)
            // The changes since a version, their inserted and changed items typed the same way.
            var position = frameworkSchemas["ItemPosition"]?.objectValue ?? [:]
            var positionMembers = position["properties"]?.objectValue ?? [:]
            positionMembers["item"] = items.objectValue?["items"]
            position["properties"] = .object(positionMembers)
            let positionName = SceneComponentNames.itemPosition(name)
            schemas[positionName] = .object(position)
            let differenceName = SceneComponentNames.snapshotDifference(name)
            schemas[differenceName] = Self.replacing(
                Self.reference("ItemPosition"), with: Self.reference(positionName), in: frameworkSchemas["SnapshotDifference"] ?? .object([:]))
            let changesName = SceneComponentNames.snapshotChanges(name)
            schemas[changesName] = Self.replacing(
                Self.reference("SnapshotDifference"), with: Self.reference(differenceName), in: frameworkSchemas["SnapshotChanges"] ?? .object([:]))
            return .object([
                "oneOf": .array([Self.reference(component), Self.reference(changesName)]),
                "discriminator": .object([
                    "propertyName": .string("kind"),
                    "mapping": .object([
                        "snapshot": .string("#/components/schemas/\(component)"),
                        "changes": .string("#/components/schemas/\(changesName)"),
                    ]),
                ]),
            ])
        }

        /// `schema` with every occurrence of `old` (a reference) replaced by `new`.
        private static func replacing(_ old: JSONValue, with new: JSONValue, in schema: JSONValue) -> JSONValue {
            if schema == old { return new }
            switch schema {
            case .object(let members): return .object(members.mapValues { replacing(old, with: new, in: $0) })
            case .array(let elements): return .array(elements.map { replacing(old, with: new, in: $0) })
            default: return schema
            }
        }

        /// The scene's state document: the framework's, with its name, input and output.
        private func state(of scene: Scene, _ sceneSchemas: SceneSchemas) -> JSONValue {
            var document = stateDocument
            var properties = document["properties"]?.objectValue ?? [:]
            properties["scene"] = .object(["type": .string("string"), "const": .string(scene.name)])
            properties["input"] = sceneSchemas.input
            properties["output"] = sceneSchemas.output
            document["properties"] = .object(properties)
            document["description"] = .string("The state of the `\(scene.name)` scene (keys `\(scene.keyPattern)`).")
            return .object(document)
        }

        /// A copy of a framework operation for a scene: its id, summary, tag, and the schema of
        /// its JSON answer (`answer`, unless `nil`).
        private func operation(_ template: [String: JSONValue], id: String, summary: String, answer: JSONValue?) -> [String: JSONValue] {
            var operation = template
            operation["operationId"] = .string(id)
            operation["summary"] = .string(summary)
            operation["tags"] = .array([.string("app")])
            if let answer, case .object(var responses)? = operation["responses"], case .object(var ok)? = responses["200"],
                case .object(var content)? = ok["content"], case .object(var json)? = content["application/json"]
            {
                json["schema"] = answer
                content["application/json"] = .object(json)
                ok["content"] = .object(content)
                responses["200"] = .object(ok)
                operation["responses"] = .object(responses)
            }
            return operation
        }

        /// A new operation id made of `words` in camel case, `_2` and on where taken; noted
        /// among the scene operations.
        private mutating func operationID(_ words: String...) -> String {
            let parts = words.flatMap { $0.split { !$0.isLetter && !$0.isNumber } }.map(String.init)
            let base = parts.enumerated().map { index, part in index == 0 ? part : part.prefix(1).uppercased() + part.dropFirst() }.joined()
            var id = base
            var number = 1
            while usedOperationIDs.contains(id) {
                number += 1
                id = "\(base)_\(number)"
            }
            usedOperationIDs.insert(id)
            sceneOperations.append(id)
            return id
        }

        private static func keyParameter(_ name: String) -> JSONValue {
            .object([
                "name": .string(name == "session" ? "key_session" : name),
                "in": .string("path"),
                "required": .bool(true),
                "description": .string("The `\(name)` of the scene's key."),
                "schema": .object(["type": .string("string")]),
            ])
        }

        private static func body(_ schema: JSONValue, required: Bool) -> JSONValue {
            .object(["required": .bool(required), "content": .object(["application/json": .object(["schema": schema])])])
        }

        static func reference(_ component: String) -> JSONValue {
            .object(["$ref": .string("#/components/schemas/\(component)")])
        }
    }
}
