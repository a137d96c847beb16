/// One to-do: what to do, and whether it is done. Its identifier comes from the app's
/// ``TodoIDGenerator`` and names its detail scene (`todo/<id>`).
struct TodoItem: Codable, Sendable, Equatable {
    /// The stable identifier, unique in its session.
    var id: String
    /// What to do.
    var title: String
    /// Whether it is done.
    var done = false
}
