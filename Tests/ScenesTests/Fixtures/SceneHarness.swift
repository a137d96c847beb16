import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
@testable import Scenes

/// One context of the Star Wars app, without HTTP: the app's catalogue, a ``FakeSwapiService``
/// as its SWAPI, and helpers that read the published documents as a client would.
struct SceneHarness {
    /// A document that was not there, or a wait that ended without the expected one.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let swapi: FakeSwapiService
    let context: ContextActor

    /// A context over `swapi`; with `showingRoot`, the films scene is shown (and loads) as in a
    /// new session.
    init(swapi: FakeSwapiService = FakeSwapiService(), showingRoot: Bool = false) async throws {
        var dependencies = DependencyValues()
        dependencies.swapi = swapi
        self.swapi = swapi
        context = ContextActor(id: "scene-test", catalogue: StarWarsApp.catalogue(), dependencies: dependencies)
        if showingRoot { try await context.showRoot() }
    }

    /// The current state of a scene, making its view model (which starts loading) on first use.
    func state<Output>(_ key: String, as output: Output.Type) async throws -> SceneDocument<Output> {
        try SceneDocument(try await context.state(of: key).body)
    }

    /// Follows a scene's published versions until one satisfies `condition`.
    func waitForState<Output>(_ key: String, as output: Output.Type, timeout: Duration = .seconds(5),
                              until condition: (SceneDocument<Output>) -> Bool) async throws -> SceneDocument<Output> {
        let deadline = ContinuousClock.now + timeout
        var document = try await context.state(of: key)
        while true {
            let decoded = try SceneDocument<Output>(document.body)
            if condition(decoded) { return decoded }
            let remaining = deadline - .now
            guard remaining > .zero else { throw Failure(description: "'\(key)' never reached the expected state; last: \(String(decoding: document.body, as: UTF8.self))") }
            switch await context.board.next(after: document.version, on: .scene(key), timeout: remaining) {
            case .newer(let newer): document = newer
            case .timedOut: continue
            case .cancelled: throw CancellationError()
            case .closed: throw Failure(description: "the context closed while waiting for '\(key)'")
            }
        }
    }

    /// Waits until the scene has loaded.
    func loaded<Output>(_ key: String, as output: Output.Type) async throws -> SceneDocument<Output> {
        try await waitForState(key, as: output) { $0.isLoaded }
    }

    /// The scene's published snapshot, read once the context has finished what it is doing.
    ///
    /// A waiter is woken by the state document, which the context publishes just before the
    /// snapshot of the same version; passing through the actor first makes sure that
    /// publication is complete.
    func snapshot(_ key: String) async throws -> SnapshotJSON {
        await context.withContext { _ in }
        guard let document = context.board.document(.snapshot(key)) else { throw Failure(description: "'\(key)' published no snapshot") }
        return try SnapshotJSON(document.body)
    }

    /// The published navigation.
    func navigation() throws -> NavigationDocument {
        guard let document = context.board.document(.navigation) else { throw Failure(description: "no navigation published") }
        return try NavigationDocument(document.body)
    }

    /// Follows the navigation's versions until one satisfies `condition`.
    func waitForNavigation(timeout: Duration = .seconds(5), until condition: (NavigationDocument) -> Bool) async throws -> NavigationDocument {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let document = context.board.document(.navigation) else { throw Failure(description: "no navigation published") }
            let decoded = try NavigationDocument(document.body)
            if condition(decoded) { return decoded }
            let remaining = deadline - .now
            guard remaining > .zero else { throw Failure(description: "the navigation never reached the expected state; last: \(String(decoding: document.body, as: UTF8.self))") }
            switch await context.board.next(after: document.version, on: .navigation, timeout: remaining) {
            case .newer, .timedOut: continue
            case .cancelled: throw CancellationError()
            case .closed: throw Failure(description: "the context closed while waiting for the navigation")
            }
        }
    }

    /// Merges input members into a scene's input; returns its new state.
    @discardableResult
    func setInput<Output>(_ members: [String: JSONValue], key: String, as output: Output.Type) async throws -> SceneDocument<Output> {
        try SceneDocument(try await context.setInput(members, key: key).body)
    }

    /// Performs an action; returns whether the navigation changed.
    @discardableResult
    func perform(_ action: String, _ arguments: [String: JSONValue] = [:], key: String) async throws -> Bool {
        try await context.perform(action: action, arguments: arguments, key: key).navigated
    }

    /// The keys in the context's store.
    func storeKeys() async -> [String] {
        await context.withContext { $0.store.keys }
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// `{"section": s, "item": i}`, action arguments naming an item by position.
    static func position(section: Int, item: Int) -> Self {
        ["section": .number(Double(section)), "item": .number(Double(item))]
    }

    /// `{"id": "…"}`, action arguments naming an item by identifier.
    static func item(id: String) -> Self {
        ["id": .string(id)]
    }
}
