import Foundation

@testable import MVVMJSON

extension FastCodingTests {
    /// Members whose names sort differently under different rules: case, digits, underscores,
    /// non-ASCII, an empty name, and names that are equal as Swift strings but differ in bytes
    /// (a composed and a decomposed accent; the Kelvin sign and `K`).
    struct OddKeys: Codable, Equatable {
        var zeta = 1, upperAlpha = 2, lowerAlpha = 3, underscore = 4, a10 = 5, a9 = 6, a1 = 7, bigB = 8, eAcute = 9
        var umlaut = 10, japanese = 11, emoji = 12, spaced = 13, empty = 14, one = 15, ten = 16, nine = 17, decomposed = 18
        var tilde = 19, upperZ = 20, kelvin = 21, upperK = 22

        enum CodingKeys: String, CodingKey {
            case zeta
            case upperAlpha = "Alpha"
            case lowerAlpha = "alpha"
            case underscore = "_under"
            case a10, a9, a1
            case bigB = "B"
            case eAcute = "é"
            case umlaut = "ümlaut"
            case japanese = "日本"
            case emoji = "emoji😀"
            case spaced = "with space"
            case empty = ""
            case one = "1"
            case ten = "10"
            case nine = "9"
            case decomposed = "e\u{301}"
            case tilde = "~"
            case upperZ = "Z"
            case kelvin = "\u{212A}"
            case upperK = "K"
        }
    }

    /// Nested structs, optionals, arrays of structs, dictionaries and enums.
    struct Garage: Codable, Equatable, Sendable {
        struct Car: Codable, Equatable, Sendable {
            var make: String
            var model: String
            var description: String
            var isFast: Bool
            var price: Int
            var mileage: Double?
            var previousOwners: [String]?
        }

        struct Owner: Codable, Equatable, Sendable {
            var name: String
            var age: Int?
            var since: Date?
        }

        var name: String
        var cars: [Car]
        var owners: [String: Owner]
        var byNumber: [Int: String]
        var notes: String?
        var tags: [String]
        var shapes: [Shape]

        static let sample = Garage(
            name: "Main \"street\" / corner",
            cars: [
                Car(
                    make: "Tesla", model: "S", description: "fast\nand quiet", isFast: true, price: 80_000, mileage: 12.5,
                    previousOwners: ["Ann", "Bob"]),
                Car(make: "Fiat", model: "500", description: "", isFast: false, price: -1, mileage: nil, previousOwners: nil),
            ],
            owners: [
                "ann": Owner(name: "Ann", age: 40, since: Date(timeIntervalSinceReferenceDate: 12345.678)),
                "Bob": Owner(name: "Bob", age: nil, since: nil),
            ],
            byNumber: [10: "ten", 9: "nine", -1: "minus one"],
            notes: nil,
            tags: ["a", "b"],
            shapes: Shape.allSamples
        )
    }

    /// An enum with associated values of every kind, for the synthesized conformance.
    indirect enum Shape: Codable, Equatable, Sendable {
        case circle(radius: Double)
        case square(Double)
        case rect(width: Int, height: Int)
        case point
        case labelled(String, tag: Int?)
        case group([Shape])

        static let allSamples: [Shape] = [
            .circle(radius: 1.5), .square(2), .rect(width: 3, height: 4), .point, .labelled("x", tag: nil), .labelled("y", tag: 7),
            .group([.point, .circle(radius: 0.1)]),
        ]
    }

    struct Empty: Codable, Equatable {}

    /// The types Foundation special-cases.
    struct Stamps: Codable, Equatable, Sendable {
        var at: Date
        var blob: Data
        var link: URL
        var amount: Decimal
        var maybe: Date?
        var dates: [Date] = []
        var blobs: [Data] = []

        static let sample = Stamps(
            at: Date(timeIntervalSinceReferenceDate: -1234.5), blob: Data("hello, world".utf8), link: URL(string: "https://example.com/a/b?c=d")!,
            amount: Decimal(string: "123.45")!, maybe: Date(timeIntervalSinceReferenceDate: 0),
            dates: [Date(timeIntervalSince1970: 0), Date(timeIntervalSinceReferenceDate: 0.1)], blobs: [Data(), Data([255])]
        )
    }

    struct Integers: Codable, Equatable {
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
    }

    /// Floating-point members at several depths, for the coding path of a NaN or an infinity.
    struct Reading: Encodable {
        var value: Double
        var values: [Double]
        var float: Float?
    }

    /// Uses `superEncoder()`, `superEncoder(forKey:)`, an unkeyed container's `superEncoder()`
    /// and nested unkeyed containers, and the matching decoders.
    struct WithSuper: Codable, Equatable, Sendable {
        struct Base: Codable, Equatable, Sendable {
            var name: String
        }

        var own: Int
        var base: Base
        var parent: Base
        var first: Int
        var listed: Base
        var trailing: Int
        var grid: [[Int]]

        enum CodingKeys: String, CodingKey {
            case own, parent, list, grid
        }

        static let sample = WithSuper(
            own: 1, base: Base(name: "base"), parent: Base(name: "parent"), first: 2, listed: Base(name: "listed"), trailing: 3,
            grid: [[1, 2], [], [3]])

        init(own: Int, base: Base, parent: Base, first: Int, listed: Base, trailing: Int, grid: [[Int]]) {
            (self.own, self.base, self.parent, self.first, self.listed, self.trailing, self.grid) = (own, base, parent, first, listed, trailing, grid)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(own, forKey: .own)
            try base.encode(to: container.superEncoder())
            try parent.encode(to: container.superEncoder(forKey: .parent))
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(first)
            try listed.encode(to: list.superEncoder())
            try list.encode(trailing)
            var rows = container.nestedUnkeyedContainer(forKey: .grid)
            for row in grid {
                var cells = rows.nestedUnkeyedContainer()
                for cell in row { try cells.encode(cell) }
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            own = try container.decode(Int.self, forKey: .own)
            base = try Base(from: container.superDecoder())
            parent = try Base(from: container.superDecoder(forKey: .parent))
            var list = try container.nestedUnkeyedContainer(forKey: .list)
            first = try list.decode(Int.self)
            listed = try Base(from: list.superDecoder())
            trailing = try list.decode(Int.self)
            var rows = try container.nestedUnkeyedContainer(forKey: .grid)
            grid = []
            while !rows.isAtEnd {
                var cells = try rows.nestedUnkeyedContainer()
                var row: [Int] = []
                while !cells.isAtEnd { row.append(try cells.decode(Int.self)) }
                grid.append(row)
            }
        }
    }

    /// Asks for its keyed container twice, sets a key twice, nests at the same key twice, and
    /// writes nil explicitly, through `encode(nil)` and through `encodeIfPresent`.
    struct Rewrites: Encodable {
        enum Keys: String, CodingKey {
            case a, b, nested, list, explicitNil, optionalNil, absent, present, inner, other
        }

        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: Keys.self)
            try first.encode(1, forKey: .a)
            try first.encode("first", forKey: .b)
            var second = encoder.container(keyedBy: Keys.self)
            try second.encode(2, forKey: .a)
            var nestedOnce = second.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nestedOnce.encode(1, forKey: .inner)
            var nestedAgain = first.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nestedAgain.encode(2, forKey: .other)
            var listOnce = first.nestedUnkeyedContainer(forKey: .list)
            try listOnce.encode(1)
            var listAgain = second.nestedUnkeyedContainer(forKey: .list)
            try listAgain.encode(2)
            try first.encodeNil(forKey: .explicitNil)
            try first.encode(Int?.none, forKey: .optionalNil)
            try first.encodeIfPresent(Int?.none, forKey: .absent)
            try first.encodeIfPresent(Int?.some(5), forKey: .present)
        }
    }

    /// Nests a container, then writes to its parent again (which ends the nested one) and to
    /// a second nested container after it.
    struct InterleavedNesting: Encodable {
        enum Keys: String, CodingKey {
            case z, inner, a, list, m
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .z)
            var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            try inner.encode("x", forKey: .m)
            try inner.encode(2.5, forKey: .a)
            try container.encode(true, forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(3)
            var row = list.nestedContainer(keyedBy: Keys.self)
            try row.encode(4, forKey: .z)
            try list.encode(5)
        }
    }

    /// Writes to a nested container after its parent was written to again: a tree still holds
    /// the nested object, one pass has closed it.
    struct LateNestedWrite: Encodable {
        enum Keys: String, CodingKey {
            case b, inner, a
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            try inner.encode(1, forKey: .b)
            try container.encode(2, forKey: .a)
            try inner.encode(3, forKey: .a)
        }
    }

    /// Encodes two values into its single-value container: the last one counts.
    struct TwoSingleValues: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(1)
            try container.encode("two")
        }
    }

    /// Sets one key three times, with a scalar, a struct and a scalar: the last one counts.
    struct SameKeyTwice: Encodable {
        enum Keys: String, CodingKey {
            case b, a
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            try container.encode(Empty(), forKey: .a)
            try container.encode("b", forKey: .b)
            try container.encode([2], forKey: .a)
        }
    }

    /// Encodes another value with the fast encoder while it is being encoded (the thread's
    /// encoder is busy then), and writes that value's length.
    struct EncodesInside: Encodable {
        enum Keys: String, CodingKey {
            case length, after
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(try JSONBytesEncoder.encode(Garage.sample).count, forKey: .length)
            try container.encode([Garage.sample.name], forKey: .after)
        }
    }

    /// A value that encodes nothing at all.
    struct Nothing: Codable, Equatable {
        init() {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {}
    }

    struct Holder: Encodable {
        var nothing: Nothing
        var list: [Nothing]
    }

    /// Arrays nested to any depth.
    indirect enum Nest: Encodable {
        case leaf
        case node([Nest])

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .leaf:
                var container = encoder.singleValueContainer()
                try container.encode(0)
            case .node(let children):
                var container = encoder.unkeyedContainer()
                for child in children { try container.encode(child) }
            }
        }
    }

    /// Members and element types for the decoding failures.
    struct Counted: Codable, Equatable {
        struct Inner: Codable, Equatable {
            var count: Int
            var note: String?
            var flag: Bool?
            var small: Int8?
            var unsigned: UInt?
            var ratio: Float?
        }

        var count: Int
        var items: [Int]
        var inner: Inner
    }

    /// Exactly three integers, read from an unkeyed container.
    struct Triple: Decodable, Equatable {
        var values: [Int]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            values = [try container.decode(Int.self), try container.decode(Int.self), try container.decode(Int.self)]
        }
    }

    /// Reads `decodeNil`, an optional element and `decodeIfPresent` from an unkeyed container.
    struct NilAware: Decodable, Equatable {
        var first: Bool
        var second: Int?
        var third: Bool
        var fourth: Int?
        var count: Int?
        var atEnd: Bool

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try container.decodeNil()
            second = try container.decode(Int?.self)
            third = try container.decodeNil()
            fourth = try container.decodeIfPresent(Int.self)
            count = container.count
            atEnd = container.isAtEnd
        }
    }
}
