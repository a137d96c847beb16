/// Makes the identifiers of new to-dos: a service the app gets from its `DependencyValues`
/// (``DependencyValues/todoIDs``), so that a test can hand out identifiers it knows.
protocol TodoIDGenerator: Sendable {
    /// A new identifier, usable in a store key (`todo/<id>`): no `/`.
    func makeID() -> String
}

/// Random identifiers: 64 random bits in base 36 (`"3k9x0q2m1z7b"`), the app's default.
struct RandomTodoIDs: TodoIDGenerator {
    func makeID() -> String {
        String(UInt64.random(in: .min ... .max), radix: 36)
    }
}
