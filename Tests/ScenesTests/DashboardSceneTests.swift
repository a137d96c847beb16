import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
@testable import Scenes
import Testing

@Suite("The dashboard scene: embedding scenes in its main and side slots (MVVMKit)")
struct DashboardSceneTests {
    typealias Output = DashboardViewModel.Output

    @Test("Embedding shows the dashboard and puts the scene in the slot")
    func embedInMain() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        _ = try await harness.loaded("films", as: FilmsViewModel.Output.self)

        let navigated = try await harness.perform("embed", ["slot": .string("main"), "scene": .string("car")], key: "dashboard")
        #expect(navigated)
        let navigation = try harness.navigation()
        #expect(navigation.stackKeys == ["films", "dashboard"])
        let car = try #require(navigation.stack.last?.slots["main"])
        #expect(car.key == "car")
        #expect(car.scene == "car")
        #expect(car.presentation == "embedded")
        #expect(try await harness.state("dashboard", as: Output.self).output.slots == ["main": "car"])
    }

    @Test("Both slots can hold a scene, and embedding again replaces the slot's scene")
    func embedInBothSlots() async throws {
        let harness = try await SceneHarness(showingRoot: true)

        try await harness.perform("embed", ["slot": .string("main"), "scene": .string("car")], key: "dashboard")
        try await harness.perform("embed", ["slot": .string("side"), "scene": .string("search")], key: "dashboard")
        try await harness.perform("embed", ["slot": .string("main"), "scene": .string("find/people")], key: "dashboard")

        let dashboard = try #require(try harness.navigation().stack.last)
        #expect(dashboard.key == "dashboard")
        #expect(dashboard.slots.mapValues(\.key) == ["main": "find/people", "side": "search"])
        #expect(try await harness.state("dashboard", as: Output.self).output.slots == ["main": "find/people", "side": "search"])
        #expect(!(await harness.storeKeys()).contains("car"))
    }

    @Test("An unknown slot is rejected as an invalid argument and nothing is embedded")
    func unknownSlot() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        let before = try harness.navigation()

        let error = try await #require(throws: ActionError.self) {
            try await harness.perform("embed", ["slot": .string("footer"), "scene": .string("car")], key: "dashboard")
        }
        guard case .invalidArguments(let input) = error else {
            Issue.record("expected invalidArguments, got \(error)")
            return
        }
        #expect(input.member == "slot")
        #expect(try harness.navigation().version == before.version)
        #expect(try await harness.state("dashboard", as: Output.self).output.slots.isEmpty)
    }

    @Test("A scene key that no scene has is rejected as an invalid argument and nothing is shown")
    func unknownScene() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        let before = try harness.navigation()

        let error = try await #require(throws: ActionError.self) {
            try await harness.perform("embed", ["slot": .string("main"), "scene": .string("jabba")], key: "dashboard")
        }
        #expect(error == .invalidArguments(InputError(member: "scene", reason: "is not the key of a scene")))
        #expect(try harness.navigation().stackKeys == before.stackKeys)
        #expect(try await harness.state("dashboard", as: Output.self).output.slots.isEmpty)
    }

    @Test("A key the scene's factory refuses (film/abc) is rejected before the dashboard is shown: nothing changes")
    func refusedKeyChangesNothing() async throws {
        let harness = try await SceneHarness(showingRoot: true)
        _ = try await harness.state("dashboard", as: Output.self)
        let before = try harness.navigation()
        let keysBefore = await harness.storeKeys()

        let error = try await #require(throws: ActionError.self) {
            try await harness.perform("embed", ["slot": .string("main"), "scene": .string("film/abc")], key: "dashboard")
        }
        #expect(error == .invalidArguments(InputError(member: "scene", reason: "is not the key of a scene")))
        #expect(try harness.navigation().version == before.version, "the dashboard was not pushed")
        #expect(try harness.navigation().stackKeys == before.stackKeys)
        #expect(await harness.storeKeys() == keysBefore)
        #expect(try await harness.state("dashboard", as: Output.self).output.slots.isEmpty)
    }

    @Test("The dashboard cannot be embedded in itself")
    func embedItself() async throws {
        let harness = try await SceneHarness(showingRoot: true)

        let error = try await #require(throws: ActionError.self) {
            try await harness.perform("embed", ["slot": .string("side"), "scene": .string("dashboard")], key: "dashboard")
        }
        #expect(error == .invalidArguments(InputError(member: "scene", reason: "cannot be the dashboard itself")))
    }

    @Test("A missing argument names the member")
    func missingArgument() async throws {
        let harness = try await SceneHarness(showingRoot: true)

        let error = try await #require(throws: ActionError.self) {
            try await harness.perform("embed", ["slot": .string("main")], key: "dashboard")
        }
        #expect(error == .invalidArguments(InputError(member: "scene", reason: "is required")))
    }
}
