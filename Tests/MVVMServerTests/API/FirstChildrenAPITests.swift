import Foundation
import MVVMCore
import MVVMServer
import ServerTestSupport
import TestSupport
import Testing

/// A container whose slot names its first child, and a scene of the app's own that steps keep
/// their data in, over real HTTP.
@Suite("Slots with first children, and scenes of the app's own")
struct FirstChildrenAPITests {
    /// What the steps keep while the user goes back and forth: the app's own scene.
    final class Drafts: ViewModel {
        var input = EmptyInput()
        let output = EmptyOutput()
        var texts: [String: String] = [:]
    }

    struct EmptyOutput: Codable, Sendable, Equatable {}

    /// One step of a form: its text comes back from the drafts when the step is shown again;
    /// `next` shows the other step in the form's slot.
    final class Step: ViewModel {
        struct Input: ViewModelInput, Equatable {
            var text = ""
            init() {}
        }

        struct Output: Codable, Sendable, Equatable {
            var name = ""
        }

        enum Action: String, CaseIterable, ViewModelAction { case next }

        var input = Input()
        let output: Output
        private let drafts: Drafts
        private let navigator: Navigator
        private let form: String
        private let other: String

        init(name: String, form: String, other: String, drafts: Drafts, navigator: Navigator) {
            output = Output(name: name)
            self.form = form
            self.other = other
            self.drafts = drafts
            self.navigator = navigator
            input.text = drafts.texts[name] ?? ""
        }

        func inputDidChange() {
            drafts.texts[output.name] = input.text
        }

        func perform(_ action: Action) async throws {
            try navigator.embed(other, in: "step", of: form)
        }
    }

    final class Form: ViewModel {
        var input = EmptyInput()
        let output = EmptyOutput()
    }

    static let catalogue = SceneCatalogue(
        scenes: [
            Scene(
                "form", key: "form/{id}", viewModel: Form.self, factory: SingleViewModelFactory { _ in Form() },
                firstChildren: ["step": "step/{id}/one"]),
            Scene(
                "step", key: "step/{id}/{name}", viewModel: Step.self,
                factory: SingleViewModelFactory { extras in
                    let id = extras.parameters["id"] ?? ""
                    let name = extras.parameters["name"] ?? ""
                    return Step(
                        name: name, form: "form/\(id)", other: "step/\(id)/\(name == "one" ? "two" : "one")",
                        drafts: try extras.scope.viewModel(Drafts.self, key: "drafts"), navigator: try extras.scope.navigator())
                }),
            Scene("drafts", key: "drafts", viewModel: Drafts.self, factory: SingleViewModelFactory { _ in Drafts() }, addressable: false),
        ],
        rootKey: "form/7")

    @Test("The session's first answer shows the container with its slot's first child, made and embedded in the same step")
    func firstChildShownAtOnce() async throws {
        let server = try await TestApplication(catalogue: Self.catalogue) { $0.testing = true }
        let created = try await server.request("POST", "/sessions")
        #expect(created.status == 201)
        let navigation = try #require(created.json["navigation"] as? [String: Any], "\(created.text)")
        let root = try #require((navigation["stack"] as? [[String: Any]])?.first)
        #expect(root["key"] as? String == "form/7")
        let step = try #require((root["slots"] as? [String: Any])?["step"] as? [String: Any], "\(created.text)")
        #expect(step["key"] as? String == "step/7/one")
        #expect(step["presentation"] as? String == "embedded")
        let id = try #require(created.json["id"] as? String)
        #expect(try await server.request("GET", "/sessions/\(id)/scenes/step/7/one").json["output"] as? [String: String] == ["name": "one"])
        let scenes = try await server.request("GET", "/scenes")
        let form = (scenes.json["scenes"] as? [[String: Any]])?.first { $0["name"] as? String == "form" }
        #expect(form?["slots"] as? [String] == ["step"], "a slot named by its first child is a slot of the scene")
        await server.stop()
    }

    @Test("A scene of the app's own keeps the steps' data: not listed, not addressable, not in the summary, never shown")
    func appsOwnScene() async throws {
        let server = try await TestApplication(catalogue: Self.catalogue) { $0.testing = true }
        try await server.withSession { server, id in
            #expect(try await server.json("POST", "/sessions/\(id)/scenes/step/7/one/input", ["text": "kept"]).status == 200)
            #expect(try await server.json("POST", "/sessions/\(id)/scenes/step/7/one/actions/next", [:]).status == 200)
            let summary = try await server.request("GET", "/sessions/\(id)")
            let keys = (summary.json["entries"] as? [[String: Any]])?.compactMap { $0["key"] as? String } ?? []
            #expect(keys.contains("step/7/two") && !keys.contains("step/7/one"), "the replaced step left the store: \(keys)")
            #expect(!keys.contains("drafts"), "the app's own scene is not in the summary")
            #expect(try await server.json("POST", "/sessions/\(id)/scenes/step/7/two/actions/next", [:]).status == 200)
            let back = try await server.request("GET", "/sessions/\(id)/scenes/step/7/one")
            #expect((back.json["input"] as? [String: Any])?["text"] as? String == "kept", "the step's data came back: \(back.text)")

            let scenes = try await server.request("GET", "/scenes")
            #expect((scenes.json["scenes"] as? [[String: Any]])?.contains { $0["name"] as? String == "drafts" } == false)
            for (method, path) in [
                ("GET", "/scenes/drafts"), ("POST", "/scenes/drafts/input"), ("POST", "/scenes/drafts/actions/x"), ("GET", "/scenes/drafts/snapshot"),
            ] {
                let answer = try await server.request(method, "/sessions/\(id)\(path)", body: method == "POST" ? Data("{}".utf8) : nil)
                #expect(answer.status == 404, "\(method) \(path)")
                #expect(answer.json["type"] as? String == "https://mvvmserver.dev/problems/scene-not-found")
            }
            let replay = try await server.json(
                "POST", "/replays",
                [
                    "session": "s", "dropped": 0,
                    "entries": [["seq": 1, "method": "POST", "path": "/scenes/drafts/input", "body": [:], "status": 200, "answer": NSNull()]],
                ])
            #expect(replay.status == 422, "a journal cannot reach it either")
        }
    }
}
