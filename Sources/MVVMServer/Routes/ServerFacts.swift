import Foundation
import Synchronization

/// What the system routes report about the server: its name, when it started, its documents,
/// and the streams its HTTP runtime has open.
final class ServerFacts: Sendable {
    /// The version `/` and `/health` report.
    let version: String
    /// When the application was made.
    let started = ContinuousClock.now
    /// The framework's contract, `GET /openapi.yaml`.
    let openAPIDocument: Data
    /// The app's contract, `GET /openapi.json`.
    let appContractDocument: Data
    /// The catalogue, `GET /scenes`.
    let catalogueDocument: Data
    /// Where to start, `GET /`.
    let indexDocument: Data
    private let name = Mutex<String>("")
    private let streams = Mutex<@Sendable () -> Int>({ 0 })

    /// The facts of a server of `version` serving `catalogue`.
    init(version: String, catalogueDocument: Data, indexDocument: Data, openAPIDocument: Data, appContractDocument: Data) {
        self.version = version
        self.appContractDocument = appContractDocument
        self.catalogueDocument = catalogueDocument
        self.indexDocument = indexDocument
        self.openAPIDocument = openAPIDocument
    }

    /// The server's name once it serves (see ``ApplicationConfiguration/instance``).
    var instanceName: String {
        get { name.withLock { $0 } }
        set { name.withLock { $0 = newValue } }
    }

    /// Server-Sent Events streams open now.
    var openStreamCount: Int {
        streams.withLock { $0 }()
    }

    /// Counts open streams with `count` from now on (the running HTTP server's).
    func countStreams(with count: @escaping @Sendable () -> Int) {
        streams.withLock { $0 = count }
    }
}
