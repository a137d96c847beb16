import Foundation
import MVVMServer

extension DocumentationExamples {
    /// An amount of money, written as a string of euros and cents (`"12.50"`): its JSON is its
    /// own, so it describes itself for the app's contract.
    struct Money: Codable, Sendable, Equatable, JSONSchemaDescribing {
        var cents: Int
        static var jsonSchema: JSONSchema {
            JSONSchema(json: .object(["type": .string("string"), "pattern": .string(#"^[0-9]+\.[0-9]{2}$"#)]))
                .described("An amount in euros, e.g. 12.50.")
                .example(.string("12.50"))
        }
    }
}

extension DocumentationExamples.Money {
    /// Reads `"12.50"`.
    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let parts = text.split(separator: ".")
        guard parts.count == 2, let euros = Int(parts[0]), let cents = Int(parts[1]) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "An amount is written 12.50."))
        }
        self.init(cents: euros * 100 + cents)
    }

    /// Writes `"12.50"`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(format: "%d.%02d", cents / 100, cents % 100))
    }
}
