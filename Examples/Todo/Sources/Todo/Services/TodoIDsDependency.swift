import MVVMServer

/// The key of the to-do identifier service in `DependencyValues`; random identifiers unless set.
enum TodoIDsKey: DependencyKey {
    static let defaultValue: any TodoIDGenerator = RandomTodoIDs()
}

extension DependencyValues {
    /// Makes the identifiers of new to-dos (a test sets one that hands out known identifiers).
    var todoIDs: any TodoIDGenerator {
        get { self[TodoIDsKey.self] }
        set { self[TodoIDsKey.self] = newValue }
    }
}
