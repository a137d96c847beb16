import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import TestSupport
import Testing

@Suite("A scene's state, input and actions over HTTP")
struct SceneAPITests {
    @Test("The state document has its scene, key, lifecycle, version, input, output and error, with the version as ETag")
    func stateDocument() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let response = try await api.loadedState(id, "counter")
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.headers["cache-control"] == "no-store")
            #expect(response.json["scene"] as? String == "counter")
            #expect(response.json["key"] as? String == "counter")
            #expect(response.json["lifecycle"] as? String == "loaded")
            let input = try #require(response.json["input"] as? [String: Any])
            #expect(input.count == 2 && input["name"] as? String == "" && input["step"] as? Int == 1)
            let output = try #require(response.json["output"] as? [String: Any])
            #expect(output.count == 2 && output["count"] as? Int == 0 && output["greeting"] as? String == "")
            #expect(response.json["error"] is NSNull)
            let version = try #require(response.documentVersion)
            #expect(response.headers["etag"] == "\"\(version)\"")
        }
    }

    @Test("A key may span several segments")
    func multiSegmentKey() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let response = try await api.get("/sessions/\(id)/scenes/detail/42")
            #expect(response.status == 200)
            #expect(response.json["scene"] as? String == "detail")
            #expect(response.json["key"] as? String == "detail/42")
            #expect((response.json["output"] as? [String: Any])?["id"] as? Int == 42)
            let encoded = try await api.get("/sessions/\(id)/scenes/detail%2F42")
            #expect(encoded.json["key"] as? String == "detail/42")
            APIClient.expectProblem(try await api.get("/sessions/\(id)/scenes/film/2"), 404, "scene-not-found")
        }
    }

    @Test("If-None-Match naming the current version answers 304 without a body")
    func notModified() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let state = try await api.loadedState(id, "counter")
            let etag = try #require(state.headers["etag"])
            let path = "/sessions/\(id)/scenes/counter"

            for header in [etag, "W/\(etag)", "\"0\", \(etag)", "*"] {
                let response = try await api.get(path, headers: ["If-None-Match": header])
                #expect(response.status == 304, "If-None-Match: \(header)")
                #expect(response.body.isEmpty)
                #expect(response.headers["etag"] == etag)
            }
            let changed = try await api.get(path, headers: ["If-None-Match": "\"0\""])
            #expect(changed.status == 200)
            #expect(changed.text == state.text)

            _ = try await api.post("\(path)/input", ["name": "Ada"])
            let newer = try await api.get(path, headers: ["If-None-Match": etag])
            #expect(newer.status == 200)
            #expect(newer.headers["etag"] != etag)
        }
    }

    @Test("An input is merged: members not sent keep their values")
    func inputMerge() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/counter/input"
            let first = try await api.post(path, ["name": "Ada"])
            #expect(first.status == 200)
            #expect(first.headers["etag"] == "\"\(first.documentVersion ?? 0)\"")
            #expect((first.json["output"] as? [String: Any])?["greeting"] as? String == "Hello, Ada")
            let second = try await api.post(path, ["step": 5])
            let input = try #require(second.json["input"] as? [String: Any])
            #expect(input["name"] as? String == "Ada")
            #expect(input["step"] as? Int == 5)
            #expect(try #require(second.documentVersion) > (first.documentVersion ?? 0))
        }
    }

    @Test("An unknown input member or a wrong type answers 422 naming the member, and nothing changes")
    func invalidInput() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let path = "/sessions/\(id)/scenes/counter/input"
            _ = try await api.loadedState(id, "counter")
            let before = try await api.post(path, ["name": "Ada"])

            APIClient.expectProblem(try await api.post(path, ["nmae": "Bob"]), 422, "invalid-input", member: "nmae")
            APIClient.expectProblem(try await api.post(path, ["step": "five"]), 422, "invalid-input", member: "step")
            APIClient.expectProblem(try await api.post(path, ["name": "Bob", "step": "five"]), 422, "invalid-input", member: "step")
            APIClient.expectProblem(try await api.post(path, ["name": "Bob", "colour": "red"]), 422, "invalid-input", member: "colour")

            let after = try await api.get("/sessions/\(id)/scenes/counter")
            #expect(after.documentVersion == before.documentVersion)
            let input = try #require(after.json["input"] as? [String: Any])
            #expect(input["name"] as? String == "Ada")
            #expect(input["step"] as? Int == 1)
        }
    }

    @Test("A body that is not well-formed JSON, or not an object, answers 400")
    func badBodies() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let input = "/sessions/\(id)/scenes/counter/input"
            let action = "/sessions/\(id)/scenes/counter/actions/add"
            APIClient.expectProblem(try await api.post(input, raw: #"{"name": "#), 400, "malformed-json")
            APIClient.expectProblem(try await api.post(action, raw: "{nope}"), 400, "malformed-json")
            APIClient.expectProblem(try await api.post(input, raw: #"["name"]"#), 400, "bad-request")
            APIClient.expectProblem(try await api.post(action, raw: "42"), 400, "bad-request")
            APIClient.expectProblem(try await api.post(input, raw: nil), 400, "bad-request")
            APIClient.expectProblem(try await api.post(input, raw: "  \n"), 400, "bad-request")
        }
    }

    @Test("An action runs with its arguments; its body may be empty or absent when it takes none")
    func actions() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let actions = "/sessions/\(id)/scenes/counter/actions"
            let none = try await api.post("\(actions)/increment", raw: nil)
            #expect(none.status == 200)
            #expect(none.headers["etag"] == "\"\(none.documentVersion ?? 0)\"")
            #expect((none.json["output"] as? [String: Any])?["count"] as? Int == 1)
            #expect(none.json["navigation"] == nil)
            let empty = try await api.post("\(actions)/increment", raw: "{}")
            #expect((empty.json["output"] as? [String: Any])?["count"] as? Int == 2)
            let added = try await api.post("\(actions)/add", ["amount": 40])
            #expect((added.json["output"] as? [String: Any])?["count"] as? Int == 42)
            #expect(added.json["scene"] as? String == "counter")
        }
    }

    @Test("An unknown action answers 404; arguments that do not fit answer 422 naming the argument")
    func invalidActions() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let actions = "/sessions/\(id)/scenes/counter/actions"
            APIClient.expectProblem(try await api.post("\(actions)/explode", raw: nil), 404, "action-not-found")
            APIClient.expectProblem(try await api.post("\(actions)/add", ["amount": "lots"]), 422, "invalid-arguments", member: "amount")
            APIClient.expectProblem(try await api.post("\(actions)/add", raw: nil), 422, "invalid-arguments", member: "amount")
            APIClient.expectProblem(try await api.post("/sessions/\(id)/scenes/nowhere/actions/add", ["amount": 1]), 404, "scene-not-found")
            let state = try await api.get("/sessions/\(id)/scenes/counter")
            #expect((state.json["output"] as? [String: Any])?["count"] as? Int == 0)
        }
    }

    @Test("An action that navigates answers the new navigation beside the state")
    func actionThatNavigates() async throws {
        try await APIClient.run { api in
            let id = try await api.createSession()
            let response = try await api.post("/sessions/\(id)/scenes/counter/actions/open", ["id": 7])
            #expect(response.status == 200)
            #expect(response.json["scene"] as? String == "counter")
            let navigation = try #require(response.json["navigation"] as? [String: Any])
            let stack = try #require(navigation["stack"] as? [[String: Any]])
            #expect(stack.map { $0["key"] as? String } == ["counter", "detail/7"])
            #expect(stack.last?["presentation"] as? String == "push")
            #expect(stack.last?["scene"] as? String == "detail")
            let path = try #require(stack.last?["path"] as? String)
            #expect(path == "/sessions/\(id)/scenes/detail/7")

            let detail = try await api.get(path)
            #expect(detail.json["key"] as? String == "detail/7")
            #expect((detail.json["output"] as? [String: Any])?["id"] as? Int == 7)
            let current = try await api.get("/sessions/\(id)/navigation")
            #expect(current.documentVersion == navigation["version"] as? Int)
        }
    }
}
