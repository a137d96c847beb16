import Foundation
import Logging
import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import Testing

@Suite("openapi.yaml and the router")
struct OpenAPISpecTests {
    /// `openapi.yaml` at the root of the package.
    static let specURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // API
        .deletingLastPathComponent()  // MVVMServerTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml")

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The operations of an OpenAPI document as `METHOD /path`, read line by line from its
    /// `paths:` section: paths at two spaces of indentation, their methods at four.
    static func operations(inSpec text: String) -> Set<String> {
        Set(taggedOperations(inSpec: text).map(\.operation))
    }

    /// The operations of an OpenAPI document with the first tag of each (`tags: [name]` at six
    /// spaces of indentation under the method).
    static func taggedOperations(inSpec text: String) -> [(operation: String, tag: String?)] {
        var operations: [(operation: String, tag: String?)] = []
        var inPaths = false
        var path: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let content = line.trimmingCharacters(in: .whitespaces)
            if content.isEmpty || content.hasPrefix("#") { continue }
            let indent = line.prefix { $0 == " " }.count
            if indent == 0 {
                inPaths = content == "paths:"
                path = nil
            } else if inPaths && indent == 2 && content.hasSuffix(":") {
                let key = content.dropLast().trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
                path = key.hasPrefix("/") ? key : nil
            } else if inPaths && indent == 4, let path, content.hasSuffix(":"), methods.contains(String(content.dropLast())) {
                operations.append(("\(content.dropLast().uppercased()) \(path)", nil))
            } else if inPaths && indent == 6, content.hasPrefix("tags: ["), let last = operations.indices.last, operations[last].tag == nil {
                operations[last].tag = content.dropFirst("tags: [".count).split(whereSeparator: { $0 == "," || $0 == "]" }).first.map(String.init)
            }
        }
        return operations
    }

    /// The operations a router serves as `METHOD /path` in OpenAPI's spelling, without HEAD.
    static func operations(of router: Router) -> Set<String> {
        Set(router.routes.filter { $0.method != "HEAD" }.map { "\($0.method) \($0.pattern.openAPIPath)" })
    }

    /// The router of an application in testing mode (every route), or not (every route but the
    /// testing ones).
    static func applicationRouter(testing: Bool = true) -> Router {
        var configuration = ApplicationConfiguration()
        configuration.testing = testing
        return Application(configuration: configuration, catalogue: APIFixtures.catalogue(), logger: Logger(label: "openapi-test")).router
    }

    @Test("Without testing mode the router serves every operation but those tagged testing (settling stays)")
    func testingRoutesNeedTestingMode() throws {
        let tagged = Self.taggedOperations(inSpec: try String(contentsOf: Self.specURL, encoding: .utf8))
        let testingOnly = Set(tagged.filter { $0.tag == "testing" }.map(\.operation))
        #expect(!testingOnly.isEmpty)
        #expect(!testingOnly.contains("GET /sessions/{id}/settled"))
        let all = Self.operations(of: Self.applicationRouter(testing: true))
        let normal = Self.operations(of: Self.applicationRouter(testing: false))
        #expect(all.subtracting(normal) == testingOnly)
        #expect(normal.isSubset(of: all))
    }

    @Test("Every route of the router is in openapi.yaml, and every operation of openapi.yaml is a route")
    func specAndRouterAgree() throws {
        let spec = Self.operations(inSpec: try String(contentsOf: Self.specURL, encoding: .utf8))
        let routes = Self.operations(of: Self.applicationRouter())
        #expect(!routes.isEmpty)
        #expect(routes.subtracting(spec).isEmpty, "routes missing from openapi.yaml: \(routes.subtracting(spec).sorted())")
        #expect(spec.subtracting(routes).isEmpty, "operations in openapi.yaml that no route serves: \(spec.subtracting(routes).sorted())")
    }

    @Test("The comparison notices a route that the spec lacks, and an operation that the router lacks")
    func comparisonSeesBothSides() throws {
        let text = try String(contentsOf: Self.specURL, encoding: .utf8)
        var router = Self.applicationRouter()
        router.add("PUT", "/sessions/{id}/scenes/{key...}/extra") { _ in .response(HTTPResponse(status: 204)) }
        let extraRoute = Self.operations(of: router).subtracting(Self.operations(inSpec: text))
        #expect(extraRoute == ["PUT /sessions/{id}/scenes/{key}/extra"])

        let longerSpec = text.replacingOccurrences(of: "\npaths:\n", with: "\npaths:\n  /extra:\n    get:\n      responses: {}\n")
        let extraOperation = Self.operations(inSpec: longerSpec).subtracting(Self.operations(of: Self.applicationRouter()))
        #expect(extraOperation == ["GET /extra"])
    }

    @Test("The multi-segment key is {key} in the spec, and its description says it may contain slashes")
    func keyParameterIsDescribed() throws {
        let text = try String(contentsOf: Self.specURL, encoding: .utf8)
        #expect(Self.operations(inSpec: text).contains("GET /sessions/{id}/scenes/{key}/snapshot"))
        #expect(!text.contains("{key...}"))
        #expect(text.contains("may contain slashes, e.g. film/2"))
    }

    @Test("GET /openapi.yaml serves openapi.yaml")
    func servedDocumentIsTheFile() async throws {
        try await APIClient.run { api in
            let response = try await api.get("/openapi.yaml")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/yaml")
            #expect(response.body == (try Data(contentsOf: Self.specURL)))
        }
    }
}
