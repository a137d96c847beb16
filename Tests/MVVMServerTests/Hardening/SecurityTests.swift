import Foundation
import MVVMSupport
import TestSupport
import Testing

@testable import MVVMCore
@testable import MVVMHTTP
@testable import MVVMJSON
@testable import MVVMServer

@Suite("Security defaults")
struct SecurityTests {
    @Test("Session ids carry 128 random bits in 22 URL-safe characters, and are never repeated")
    func sessionIDs() {
        let ids = (0..<10_000).map { _ in SessionID.make() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy(SessionID.isWellFormed))
        #expect(
            ids.allSatisfy {
                $0.utf8.allSatisfy { byte in
                    byte < 0x80
                        && (Character(Unicode.Scalar(byte)).isLetter || Character(Unicode.Scalar(byte)).isNumber || byte == UInt8(ascii: "-")
                            || byte == UInt8(ascii: "_"))
                }
            })
        // Every one of the 64 symbols appears in the first 21 positions (6 random bits each).
        let symbols = Set(ids.flatMap { Array($0.prefix(21)) })
        #expect(symbols.count == 64)
    }

    @Test("Logged paths never carry a session id in full")
    func logRedaction() {
        let id = SessionID.make()
        let logged = Application.redactSessionIDs("/sessions/\(id)/scenes/film/2")
        #expect(!logged.contains(id))
        #expect(logged.hasPrefix("/sessions/\(id.prefix(4))…/scenes/film/2"))
        #expect(Application.redactSessionIDs("/health") == "/health")
    }

    @Test("The server binds to loopback unless told otherwise, and no route lists sessions")
    func defaults() {
        #expect(HTTPServerConfiguration().host == "127.0.0.1")
        let app = Application(configuration: ApplicationConfiguration(), catalogue: ProbeApp.catalogue, logger: .init(label: "test"))
        #expect(!app.router.routes.contains { $0.method == "GET" && $0.pattern.description == "/sessions" })
    }
}
