import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// The navigator of a context (UIKit's navigation controller, driven by coordinators): a
    /// stack with a root and at most one modal; each step gives the navigation a new version and
    /// one event; a scene that leaves the screen leaves the store, unless still shown elsewhere.
    @Suite("Navigation")
    struct NavigatorTests {
        private func makeContext() -> ViewModelContext {
            ViewModelContext(id: "navigation", catalogue: NavigationFixtures.catalogue())
        }

        private func navigationEvents(_ context: ViewModelContext) throws -> [String] {
            let navigationTypes: Set = ["didSetRoot", "didPush", "didPop", "didPresent", "didDismiss", "didEmbed"]
            return try #require(context.events.events(after: 0)).filter { navigationTypes.contains($0.type) }.map { "\($0.type) \($0.key)" }
        }

        @Test("setRoot, push and present build the stack and the modal; each step has a new version and an event")
        func stepsBuildTheNavigation() throws {
            let context = makeContext()
            let navigator = context.navigator
            var versions = [navigator.state.version]

            try navigator.setRoot("home")
            versions.append(navigator.state.version)
            try navigator.push("film/1")
            versions.append(navigator.state.version)
            try navigator.push("film/2")
            versions.append(navigator.state.version)
            try navigator.present("settings")
            versions.append(navigator.state.version)

            #expect(navigator.state.stack.map(\.key) == ["home", "film/1", "film/2"])
            #expect(navigator.state.stack.map(\.presentation) == [.root, .push, .push])
            #expect(navigator.state.stack[1] == NavigationEntry(scene: "film", key: "film/1", presentation: .push))
            #expect(navigator.state.modal?.key == "settings")
            #expect(navigator.state.modal?.presentation == .modal)
            #expect(navigator.state.top?.key == "settings")
            #expect(navigator.state.shownKeys == ["home", "film/1", "film/2", "settings"])
            #expect(versions == versions.sorted() && Set(versions).count == versions.count, "the version increases at every step")
            #expect(try navigationEvents(context) == ["didSetRoot home", "didPush film/1", "didPush film/2", "didPresent settings"])
            #expect(context.board.document(.navigation)?.version == navigator.state.version, "the navigation is published")
            #expect(Set(context.store.keys) == ["home", "film/1", "film/2", "settings"], "showing a key makes its view model")
        }

        @Test("back dismisses the modal first, then pops; popped and dismissed scenes unload and leave the store")
        func backDismissesThenPops() throws {
            let context = makeContext()
            let navigator = context.navigator
            try navigator.setRoot("home")
            try navigator.push("film/1")
            try navigator.present("settings")
            let film = try context.viewModel(FilmViewModel.self, key: "film/1")

            try navigator.back()
            #expect(navigator.state.modal == nil)
            #expect(context.store.entry("settings") == nil, "the dismissed scene left the store")
            try navigator.back()
            #expect(navigator.state.stack.map(\.key) == ["home"])
            #expect(context.store.entry("film/1") == nil, "the popped scene left the store")
            #expect(
                try navigationEvents(context) == ["didSetRoot home", "didPush film/1", "didPresent settings", "didDismiss settings", "didPop film/1"])

            let unloads = try #require(context.events.events(after: 0)).filter { $0.type.hasSuffix("Unload") }.map { "\($0.type) \($0.key)" }
            #expect(unloads == ["willUnload settings", "didUnload settings", "willUnload film/1", "didUnload film/1"])
            #expect(try context.viewModel(FilmViewModel.self, key: "film/1") !== film, "showing it again makes a new one")
        }

        @Test("A popped scene that is still shown elsewhere stays in the store")
        func stillShownStays() throws {
            let context = makeContext()
            let navigator = context.navigator
            try navigator.setRoot("home")
            try navigator.push("film/1")
            let film = try context.viewModel(FilmViewModel.self, key: "film/1")
            try navigator.present("film/1")
            try navigator.dismiss()
            #expect(context.store.existing(FilmViewModel.self, key: "film/1") === film, "still on the stack")

            try navigator.push("film/1")
            try navigator.pop()
            #expect(navigator.state.stack.map(\.key) == ["home", "film/1"])
            #expect(context.store.existing(FilmViewModel.self, key: "film/1") === film, "still under the popped copy")
        }

        @Test("Presenting a modal replaces the one shown; setRoot replaces everything")
        func replacing() throws {
            let context = makeContext()
            let navigator = context.navigator
            try navigator.setRoot("home")
            try navigator.present("settings")
            try navigator.present("film/3")
            #expect(navigator.state.modal?.key == "film/3")
            #expect(context.store.entry("settings") == nil)

            try navigator.push("film/1")
            try navigator.setRoot("film/2")
            #expect(navigator.state.stack.map(\.key) == ["film/2"])
            #expect(navigator.state.modal == nil)
            #expect(Set(context.store.keys) == ["film/2"])
        }

        @Test("back, pop and dismiss at the root throw NavigationError.atRoot and change nothing")
        func atRoot() throws {
            let context = makeContext()
            let navigator = context.navigator
            #expect(throws: NavigationError.atRoot) { try navigator.back() }
            try navigator.setRoot("home")
            let version = navigator.state.version
            #expect(throws: NavigationError.atRoot) { try navigator.back() }
            #expect(throws: NavigationError.atRoot) { try navigator.pop() }
            #expect(throws: NavigationError.atRoot) { try navigator.dismiss() }
            #expect(navigator.state.version == version)
            #expect(navigator.state.stack.map(\.key) == ["home"])
            #expect(NavigationError.atRoot.description == "only the root scene is shown; there is nothing to go back from")
        }

        @Test("Showing a key that no scene has throws unknownKey and changes nothing")
        func unknownKey() throws {
            let context = makeContext()
            try context.navigator.setRoot("home")
            let error = #expect(throws: ViewModelStoreError.self) { try context.navigator.push("planet/1") }
            #expect(error?.isUnknownKey == true)
            #expect(context.navigator.state.stack.map(\.key) == ["home"])
        }

        @Test("A modal that dismisses itself leaves the store and is not made again by the answer to its action")
        func modalDismissingItself() async throws {
            let context = ContextActor(id: "alert", catalogue: NavigationFixtures.catalogue(), dependencies: DependencyValues())
            try await context.showRoot()
            try await context.withContext { try $0.navigator.present("alert") }
            try await context.board.waitForLifecycle(.loaded, of: "alert")
            let shown = try SceneState<EmptyInput, AlertViewModel.Output>(of: "alert", on: context.board)

            let result = try await context.perform(action: "dismiss", arguments: [:], key: "alert")
            #expect(result.navigated)
            let answer = try SceneState<EmptyInput, AlertViewModel.Output>(result.state)
            #expect(answer.key == "alert" && answer.lifecycle == .unloading, "the answer is the alert's last published state")
            #expect(answer.version > shown.version)
            #expect(await context.summary().entries.map(\.key) == ["home"])
            let alertEvents = try #require(context.events.events(after: 0)).filter { $0.key == "alert" }.map(\.type)
            #expect(alertEvents == ["didSetup", "didPresent", "willLoad", "didLoad", "didDismiss", "willUnload", "didUnload"])
            await context.close()
        }

        @Test("A view model navigates through its coordinator; the context reports that the navigation changed")
        func coordinatorDrivenNavigation() async throws {
            let context = ContextActor(id: "coordinated", catalogue: NavigationFixtures.catalogue(), dependencies: DependencyValues())
            try await context.showRoot()
            let opened = try await context.perform(action: "openFilm", arguments: ["id": .number(2)], key: "home")
            #expect(opened.navigated)
            let presented = try await context.perform(action: "presentSettings", arguments: [:], key: "home")
            #expect(presented.navigated)

            let navigation = await context.summary().navigation
            #expect(navigation.stack.map(\.key) == ["home", "film/2"])
            #expect(navigation.modal?.key == "settings")

            try await context.back()
            try await context.back()
            #expect(await context.summary().entries.map(\.key) == ["home"])
            await #expect(throws: NavigationError.atRoot) { try await context.back() }
            await context.close()
        }
    }
}
