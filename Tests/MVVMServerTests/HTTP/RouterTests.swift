import MVVMSupport
import Testing

@testable import MVVMCore
@testable import MVVMHTTP
@testable import MVVMJSON
@testable import MVVMServer

@Suite("Path patterns and the router")
struct RouterTests {
    @Test("A multi-segment parameter takes what the rest of the pattern leaves")
    func multiSegment() {
        let pattern = PathPattern("/sessions/{id}/scenes/{key...}/actions/{action}")
        let parameters = pattern.match(["sessions", "abc", "scenes", "film", "2", "actions", "select"])
        #expect(parameters == ["id": "abc", "key": "film/2", "action": "select"])
        #expect(pattern.match(["sessions", "abc", "scenes", "actions", "select"]) == nil)
        #expect(pattern.openAPIPath == "/sessions/{id}/scenes/{key}/actions/{action}")
    }

    @Test("A route's code that reads a path parameter its pattern does not have stops at once, instead of reading it as empty and answering 404")
    func mistypedParameterName() async {
        let routed = RoutedRequest(request: HTTPRequest(method: "GET", path: "/sessions/abc"), pairs: [], pattern: PathPattern("/sessions/{id}"))
        #expect(routed["id"] == "", "a parameter of the pattern with no value reads empty")
        await #expect(processExitsWith: .failure) {
            let routed = RoutedRequest(request: HTTPRequest(method: "GET", path: "/sessions/abc"), pairs: [], pattern: PathPattern("/sessions/{id}"))
            _ = routed["idd"]
        }
    }

    @Test("The root pattern matches the root path alone")
    func root() {
        var router = Router()
        router.add("GET", "/") { _ in .response(HTTPResponse(status: 204)) }
        router.add("GET", "/{name}") { _ in .response(HTTPResponse(status: 204)) }
        func route(_ method: String, _ path: String) -> Int? {
            if case .success(let (route, _)) = router.resolve(HTTPRequest(method: method, path: path)) { return route.index }
            return nil
        }
        #expect(route("GET", "/") == 0)
        #expect(route("GET", "/health") == 1)
        #expect(route("GET", "//") == nil)
        #expect(route("POST", "/") == nil)
        #expect(PathPattern("/").openAPIPath == "/")
        #expect(PathPattern("/").match([""]) == [:])
        #expect(PathPattern("/").match(["x"]) == nil)
    }

    @Test("Empty segments never match a parameter")
    func emptySegments() {
        #expect(PathPattern("/sessions/{id}").match(["sessions", ""]) == nil)
        #expect(PathPattern("/a/{key...}").match(["a", "x", "", "y"]) == nil)
    }

    @Test("Unknown methods answer 501, known ones a path does not serve 405; bad escapes answer 400")
    func resolveErrors() {
        var router = Router()
        router.add("GET", "/health") { _ in .response(HTTPResponse(status: 204)) }
        func status(_ method: String, _ path: String) -> Int? {
            if case .failure(let error) = router.resolve(HTTPRequest(method: method, path: path)) { return error.kind.status }
            return nil
        }
        #expect(status("BREW", "/health") == 501)
        #expect(status("get", "/health") == 501)
        #expect(status("GET", "/he%zzlth") == 400)
        #expect(status("GET", "/he%00lth") == 400)
        #expect(status("GET", "/%C3%28") == 400)
        #expect(status("POST", "/health") == 405)
        // Every method of RFC 9110 (and PATCH) is known: on a path that does not serve it, 405.
        #expect(status("TRACE", "/health") == 405)
        #expect(status("CONNECT", "/health") == 405)
        #expect(status("QUERY", "/health") == 501)
        #expect(status("GET", "/health") == nil)
        #expect(status("HEAD", "/health") == nil)
        // The published list agrees with what routing accepts.
        #expect(Router.knownMethods == ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"])
        for method in Router.knownMethods where method != "GET" && method != "HEAD" {
            #expect(status(method, "/health") == 405)
        }
    }
}
