import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import Testing

@Suite("Request header fields")
struct HTTPRequestTests {
    @Test("Fields are looked up without regard to the case of ASCII letters; the last one sent wins")
    func caseInsensitiveLookup() {
        var request = HTTPRequest(method: "GET", path: "/")
        request.fields = [("Host", "127.0.0.1"), ("If-None-Match", "\"1\""), ("if-none-match", "\"2\""), ("X-Émoji", "ok")]
        #expect(request.header("host") == "127.0.0.1")
        #expect(request.header("IF-NONE-MATCH") == "\"2\"")
        #expect(request.header("x-émoji") == nil, "only ASCII letters fold")
        #expect(request.header("X-Émoji") == "ok")
        #expect(request.header("hos") == nil)
        #expect(request.header("host2") == nil)
    }

    @Test("The dictionary view has lower-cased names and the last value of a repeated field")
    func dictionaryView() {
        var request = HTTPRequest(method: "GET", path: "/", headers: ["Content-Type": "application/json"])
        #expect(request.headers == ["content-type": "application/json"])
        request.fields.append(("content-type", "text/plain"))
        #expect(request.headers == ["content-type": "text/plain"])
        #expect(request.header("Content-Type") == "text/plain")
    }
}
