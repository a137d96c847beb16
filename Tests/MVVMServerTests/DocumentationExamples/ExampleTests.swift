import Foundation
import MVVMServer
import ServerTestSupport
import Synchronization
import TestSupport
import Testing

extension DocumentationExamples {
    /// A library whose reviews change each time they are read, to see work a view model
    /// launched arrive as a later version.
    final class ChangingReviews: Library {
        private let reads = Atomic<Int>(0)

        func books() async throws -> [Book] {
            try await BundledLibrary().books()
        }

        func reviews(of id: Int) async throws -> [String] {
            ["review \(reads.add(1, ordering: .relaxed).newValue)"]
        }
    }

    /// What the articles say of the examples, checked over HTTP.
    @Suite("The documentation's examples, served over HTTP", .timeLimit(.minutes(1)))
    struct ExampleTests {
        /// Serves the library app while `body` runs with it and a new session's id.
        static func serve(
            library: (any Library)? = nil, stateFile: String? = nil, logger: Logger? = nil,
            _ body: (TestApplication, String) async throws -> Void
        ) async throws {
            var dependencies = DependencyValues()
            if let library { dependencies.library = library }
            var quiet = Logger(label: "docs")
            quiet.logLevel = .error
            let app = try await TestApplication(catalogue: LibraryApp.catalogue, dependencies: dependencies, logger: logger ?? quiet) {
                configuration in
                configuration.storage = stateFile.map { .sqlite(path: $0) }
            }
            try await app.withSession(body)
        }

        /// The state of the scene under `key` once it has loaded.
        static func loaded(_ app: TestApplication, _ session: String, _ key: String) async throws -> [String: Any] {
            var state = try await app.request("GET", "/sessions/\(session)/scenes/\(key)").json
            for _ in 0..<50 where state["lifecycle"] as? String != "loaded" {
                let version = state["version"] as? Int ?? 0
                state = try await app.request("GET", "/sessions/\(session)/scenes/\(key)?since=\(version)&wait=5").json
            }
            #expect(state["lifecycle"] as? String == "loaded", "\(key): \(state)")
            return state
        }

        static func output(_ state: [String: Any]) -> [String: Any] {
            state["output"] as? [String: Any] ?? [:]
        }

        /// The items of a snapshot document, by id.
        static func items(_ snapshot: [String: Any]) -> [String: [String: Any]] {
            let sections = snapshot["sections"] as? [[String: Any]] ?? []
            let items = sections.flatMap { $0["items"] as? [[String: Any]] ?? [] }
            return Dictionary(items.map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        }

        /// Whether an answer is a 422 problem of `kind`, naming `member` when given.
        static func isRefusal(_ response: TestResponse, _ kind: String, member: String? = nil) -> Bool {
            response.status == 422 && (response.json["type"] as? String)?.hasSuffix("/" + kind) == true
                && response.json["member"] as? String == member
        }

        @Test("The shelf lists the books a section per shelf; a filter's changes are served since a version; open pushes the book")
        func shelf() async throws {
            try await Self.serve { app, session in
                let scenes = "/sessions/\(session)/scenes"
                let before = try await Self.loaded(app, session, "shelf")
                let snapshot = try await app.request("GET", "\(scenes)/shelf/snapshot").json
                #expect((snapshot["sections"] as? [[String: Any]])?.map { $0["id"] as? String } == ["fiction", "science"])
                #expect(Self.items(snapshot)["2"]?["title"] as? String == "Solaris")

                let filtered = try await app.json("POST", "\(scenes)/shelf/input", ["filter": "sol"])
                #expect(Self.output(filtered.json)["shown"] as? Int == 1)
                let changes = try await app.request("GET", "\(scenes)/shelf/snapshot?since=\(before["version"] as? Int ?? 0)").json
                #expect(changes["kind"] as? String == "changes")
                let deleted = ((changes["changes"] as? [String: Any])?["items"] as? [String: Any])?["deleted"] as? [[String: Any]]
                #expect(deleted?.compactMap { $0["id"] as? String }.sorted() == ["1", "3"])

                let opened = try await app.json("POST", "\(scenes)/shelf/actions/open", ["section": 0, "item": 0])
                let stack = (opened.json["navigation"] as? [String: Any])?["stack"] as? [[String: Any]]
                #expect(stack?.map { $0["key"] as? String } == ["shelf", "book/2"])
                let book = try await Self.loaded(app, session, "book/2")
                #expect(Self.output(book)["title"] as? String == "Solaris")
                #expect(Self.output(book)["author"] as? String == "Stanisław Lem")
            }
        }

        @Test("A refused input, argument or action answers 422 naming what was refused, and changes nothing")
        func refusals() async throws {
            try await Self.serve { app, session in
                let book = "/sessions/\(session)/scenes/book/1"
                _ = try await Self.loaded(app, session, "book/1")
                #expect(try await app.json("POST", "\(book)/actions/borrow", [String: Any]()).status == 200)
                let version = try await app.request("GET", book).json["version"] as? Int

                let note = try await app.json("POST", "\(book)/input", ["note": String(repeating: "x", count: 281)])
                #expect(Self.isRefusal(note, "invalid-input", member: "note"), "\(note.text)")
                let stars = try await app.json("POST", "\(book)/actions/rate", ["stars": 9])
                #expect(Self.isRefusal(stars, "invalid-arguments", member: "stars"), "\(stars.text)")
                let again = try await app.json("POST", "\(book)/actions/borrow", [String: Any]())
                #expect(Self.isRefusal(again, "action-refused"), "\(again.text)")
                let giveBack = try await app.json("POST", "/sessions/\(session)/scenes/loans/actions/giveBack", ["id": 3])
                #expect(Self.isRefusal(giveBack, "invalid-arguments", member: "id"), "\(giveBack.text)")

                let state = try await app.request("GET", book).json
                #expect(state["version"] as? Int == version)
                #expect(state["error"] is NSNull)
                #expect(try await app.json("POST", "\(book)/actions/rate", ["stars": 5]).status == 200)
            }
        }

        @Test("Borrowing from a book republishes the shelf bound to the loans, and the loans it called into")
        func binding() async throws {
            try await Self.serve { app, session in
                let scenes = "/sessions/\(session)/scenes"
                let shelf = try await Self.loaded(app, session, "shelf")
                _ = try await Self.loaded(app, session, "book/1")
                let version = shelf["version"] as? Int ?? 0
                async let woken = app.request("GET", "\(scenes)/shelf?since=\(version)&wait=10")
                // Parked before the change: the long-poll is woken by it.
                try await app.waitUntilParked()
                #expect(try await app.json("POST", "\(scenes)/book/1/actions/borrow", [String: Any]()).status == 200)
                #expect(try await woken.json["version"] as? Int ?? 0 > version)
                let snapshot = try await app.request("GET", "\(scenes)/shelf/snapshot").json
                #expect(Self.items(snapshot)["1"]?["borrowed"] as? Bool == true)
                #expect(Self.items(snapshot)["2"]?["borrowed"] as? Bool == false)
                #expect(Self.output(try await app.request("GET", "\(scenes)/loans").json)["count"] as? Int == 1)

                #expect(try await app.json("POST", "\(scenes)/loans/actions/giveBack", ["id": 1]).status == 200)
                let after = try await app.request("GET", "\(scenes)/shelf/snapshot").json
                #expect(Self.items(after)["1"]?["borrowed"] as? Bool == false)
            }
        }

        @Test("A rating and the loans are saved values: they come back after a restart")
        func restart() async throws {
            let folder = FileManager.default.temporaryDirectory.appending(path: "mvvm-docs-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appending(path: "state.sqlite").path
            var saved = ""
            try await Self.serve(stateFile: file) { app, session in
                saved = session
                let book = "/sessions/\(session)/scenes/book/1"
                let rated = try await app.json("POST", "\(book)/actions/rate", ["stars": 4])
                #expect(rated.status == 200)
                let borrowed = try await app.json("POST", "\(book)/actions/borrow", [String: Any]())
                #expect(borrowed.status == 200)
            }
            try await Self.serve(stateFile: file) { app, _ in
                let book = try await Self.loaded(app, saved, "book/1")
                #expect(Self.output(book)["stars"] as? Int == 4)
                #expect(Self.output(book)["title"] as? String == "Dune")
                _ = try await Self.loaded(app, saved, "shelf")
                let snapshot = try await app.request("GET", "/sessions/\(saved)/scenes/shelf/snapshot").json
                #expect(Self.items(snapshot)["1"]?["borrowed"] as? Bool == true)
            }
        }

        @Test("Without storage, writing saved state logs one warning per scene")
        func unsavedWarning() async throws {
            let lines = CapturedLogLines()
            let logger = Logger(label: "docs") { _ in CapturingLogHandler(lines: lines) }
            try await Self.serve(logger: logger) { app, session in
                for key in ["book/1", "book/2"] {
                    let rated = try await app.json("POST", "/sessions/\(session)/scenes/\(key)/actions/rate", ["stars": 3])
                    #expect(rated.status == 200)
                }
            }
            let warnings = lines.all.filter { $0.level == .warning && $0.message.contains("writes its saved state") }
            #expect(warnings.map { $0.metadata["scene"] } == ["book"])
        }

        @Test("A load that fails keeps its error in the state; the read answers 200")
        func loadFailure() async throws {
            try await Self.serve { app, session in
                let state = try await Self.loaded(app, session, "book/99")
                #expect(state["error"] as? String == "the library has no book 99")
                #expect(Self.output(state)["title"] as? String == "")
            }
        }

        @Test("Work a view model launched is published when it ends, as a later version")
        func launchedWork() async throws {
            try await Self.serve(library: ChangingReviews()) { app, session in
                let book = "/sessions/\(session)/scenes/book/1"
                let loaded = try await Self.loaded(app, session, "book/1")
                #expect(Self.output(loaded)["reviews"] as? [String] == ["review 1"])
                let answered = try await app.json("POST", "\(book)/actions/refreshReviews", [String: Any]())
                #expect(answered.status == 200)
                var state = answered.json
                for _ in 0..<50 where Self.output(state)["reviews"] as? [String] != ["review 2"] {
                    state = try await app.request("GET", "\(book)?since=\(state["version"] as? Int ?? 0)&wait=5").json
                }
                #expect(Self.output(state)["reviews"] as? [String] == ["review 2"])
            }
        }

        @Test("Settings: a flag or variable wins over the app's code, which wins over the defaults")
        func settings() throws {
            let code = LibraryApp.configuration(stateFile: "/var/lib/library/state.sqlite")
            // Parsed, as the entry point parses them: `ServerOptions()` is not usable on its own
            // (argument-parser's wrappers hold no value until parsed).
            let configuration = try ServerOptions.parse([]).configuration(appName: "library", code: code, environment: ["MVVM_PORT": "9000"])
            #expect(configuration.http.port == 9000)
            #expect(configuration.maxWaitSeconds == 30)
            #expect(configuration.http.host == "127.0.0.1")
            #expect(
                ServerOptions.defaultStateFile(appName: "library", environment: ["XDG_STATE_HOME": "/srv/state"]) == "/srv/state/library/state.sqlite"
            )
            #expect(
                ServerOptions.defaultStateFile(appName: "library", environment: ["HOME": "/home/ada"])
                    == "/home/ada/.local/state/library/state.sqlite")
        }

        @Test("The application as a service of a ServiceGroup: it serves, and a graceful shutdown stops it")
        func serviceGroup() async throws {
            var configuration = ApplicationConfiguration()
            configuration.http.port = 0
            var quiet = Logger(label: "docs")
            quiet.logLevel = .warning
            let (app, group) = LibraryApp.services(configuration: configuration, logger: quiet)
            let running = Task { try await group.run() }
            let port = try await app.listeningPort
            #expect(try await TestHTTPClient.request(port: port, "POST", "/sessions").status == 201)
            await group.triggerGracefulShutdown()
            try await running.value
        }

        @Test("The library's contract describes every type exactly; Money describes itself")
        func contract() throws {
            #expect(Application.contractWarnings(of: LibraryApp.catalogue).isEmpty)
            let contract = try #require(JSONValue(json: Application.contract(of: LibraryApp.catalogue))?.objectValue)
            let money = contract["components"]?.objectValue?["schemas"]?.objectValue?["DocumentationExamples.Money"]?.objectValue
            #expect(money?["pattern"] == .string(#"^[0-9]+\.[0-9]{2}$"#))
        }
    }
}
