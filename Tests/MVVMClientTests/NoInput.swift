import Foundation

/// The input of a scene without one, as the client decodes it.
struct NoInput: Codable, Sendable, Equatable {}
