import Testing

@testable import Todo

@Test("The app's identifiers are distinct and fit in a store key")
func randomIDs() {
    let ids = (0..<1000).map { _ in RandomTodoIDs().makeID() }
    #expect(Set(ids).count == ids.count)
    #expect(ids.allSatisfy { !$0.isEmpty && !$0.contains("/") })
}
