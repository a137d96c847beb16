/// How a cell interaction names its item: by identifier (`{"id": "film-1"}`) or by position
/// (`{"section": 0, "item": 2}`), as MVVMKit's cells report an index path.
public enum ItemReference: Decodable, Sendable, Equatable, CustomStringConvertible {
    /// The item with this identifier.
    case id(String)
    /// The item at this section and item index.
    case position(section: Int, item: Int)

    /// The reference as a client wrote it, for an answer's detail: `with id 99`, or
    /// `at section 0, item 2`.
    public var description: String {
        switch self {
        case .id(let id): "with id \(id)"
        case .position(let section, let item): "at section \(section), item \(item)"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, section, item
    }

    /// Decodes `{"id": …}` (a string or a number) or `{"section": …, "item": …}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.id) {
            if let number = try? container.decode(Int.self, forKey: .id) {
                self = .id(String(number))
            } else {
                self = .id(try container.decode(String.self, forKey: .id))
            }
        } else if container.contains(.section) || container.contains(.item) {
            self = .position(section: try container.decode(Int.self, forKey: .section), item: try container.decode(Int.self, forKey: .item))
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.id, .init(codingPath: container.codingPath, debugDescription: "Name the item by 'id', or by 'section' and 'item'."))
        }
    }
}

extension ItemReference: JSONSchemaDescribing {
    /// `{"id": …}`, a string or a number, or `{"section": …, "item": …}`.
    public static var jsonSchema: JSONSchema {
        let id = JSONSchema(json: .object(["type": .array([.string("string"), .string("integer")])]))
        return JSONSchema(
            json: .object([
                "anyOf": .array([
                    JSONSchema.object(["id": id], required: ["id"]).json,
                    JSONSchema.object(["section": .integer, "item": .integer], required: ["section", "item"]).json,
                ])
            ])
        ).described("The item, by its identifier or by its position.")
    }
}
