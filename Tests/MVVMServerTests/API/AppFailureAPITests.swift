import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import ServerTestSupport
import TestSupport
import Testing

/// The answers that only an app whose scenes fail can cause: 500 `internal-error` (a factory
/// or an action throws) and 409 `scene-conflict` / `navigation-conflict` from the scene routes.
/// openapi.yaml documents them; the example app never fails this way, so scripts/check-statuses.py
/// (which drives the example app) relies on this suite for them, by the operation names below.
@Suite("Failing scenes over HTTP")
struct AppFailureAPITests {
    struct Boom: Error {}

    /// The root: an input member, and actions that throw or take an impossible navigation step.
    final class Fragile: ViewModel {
        struct Input: ViewModelInput {
            var text = ""
            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var text = ""
        }

        enum Action: String, ViewModelAction {
            /// Throws an error that is not the framework's.
            case explode
            /// Pops the stack at its root.
            case pop

            static let names = ["explode", "pop"]

            init(name: String, arguments: ActionArguments) throws {
                guard let action = Self(rawValue: name) else { throw ActionError.unknown(name) }
                self = action
            }
        }

        var input = Input()
        private(set) var output = Output()
        private let navigator: Navigator?

        init(navigator: Navigator?) {
            self.navigator = navigator
        }

        func inputDidChange() {
            output.text = input.text
        }

        func perform(_ action: Action) async throws {
            switch action {
            case .explode: throw Boom()
            case .pop: try navigator?.pop()
            }
        }
    }

    /// Made by nobody: its scene's factory answers `nil` for it.
    final class Unmade: InitializableViewModel {
        struct Output: Codable, Sendable, Equatable {}
        var input = EmptyInput()
        let output = Output()
        init() {}
    }

    struct MakesNothing: ViewModelFactory {
        func create<Model: ViewModel>(_ type: Model.Type, extras: CreationExtras) throws -> Model? { nil }
    }

    static let catalogue = SceneCatalogue(
        scenes: [
            Scene(
                "fragile", key: "fragile", viewModel: Fragile.self,
                factory: SingleViewModelFactory { extras in
                    Fragile(navigator: extras.context?.navigator)
                }),
            Scene("broken", key: "broken", viewModel: Unmade.self, factory: SingleViewModelFactory { _ -> Unmade in throw Boom() }),
            Scene("unmade", key: "unmade", viewModel: Unmade.self, factory: MakesNothing()),
        ],
        rootKey: "fragile")

    static func run(_ body: (TestApplication, String) async throws -> Void) async throws {
        let app = try await TestApplication(catalogue: catalogue)
        try await app.withSession(body)
    }

    @Test("getSceneState 500, getSnapshot 500, setInput 500 and performAction 500: a factory or an action throws")
    func internalErrors() async throws {
        try await Self.run { app, id in
            let scenes = "/sessions/\(id)/scenes"
            APIClient.expectProblem(try await app.request("GET", "\(scenes)/broken"), 500, "internal-error")
            APIClient.expectProblem(try await app.request("GET", "\(scenes)/broken/snapshot"), 500, "internal-error")
            APIClient.expectProblem(try await app.json("POST", "\(scenes)/broken/input", ["text": "x"]), 500, "internal-error")
            APIClient.expectProblem(try await app.request("POST", "\(scenes)/fragile/actions/explode"), 500, "internal-error")
            // The server and the session go on.
            #expect(try await app.json("POST", "\(scenes)/fragile/input", ["text": "x"]).status == 200)
        }
    }

    @Test(
        "getSceneState 409, getSnapshot 409, setInput 409 and performAction 409: a factory that does not make its scene, a navigation step that cannot be taken"
    )
    func conflicts() async throws {
        try await Self.run { app, id in
            let scenes = "/sessions/\(id)/scenes"
            APIClient.expectProblem(try await app.request("GET", "\(scenes)/unmade"), 409, "scene-conflict")
            APIClient.expectProblem(try await app.request("GET", "\(scenes)/unmade/snapshot"), 409, "scene-conflict")
            APIClient.expectProblem(try await app.json("POST", "\(scenes)/unmade/input", ["text": "x"]), 409, "scene-conflict")
            APIClient.expectProblem(try await app.request("POST", "\(scenes)/unmade/actions/any"), 409, "scene-conflict")
            APIClient.expectProblem(try await app.request("POST", "\(scenes)/fragile/actions/pop"), 409, "navigation-conflict")
        }
    }
}
