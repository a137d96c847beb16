import Foundation
import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// A scene's state document decoded with its view model's own types, as a client reads
    /// `{"error", "input", "key", "lifecycle", "output", "scene", "version"}`.
    struct SceneState<Input: Decodable, Output: Decodable>: Decodable {
        let error: String?
        let input: Input
        let key: String
        let lifecycle: Lifecycle.State
        let output: Output
        let scene: String
        let version: UInt64

        /// Decodes a published document.
        init(_ document: PublicationBoard.Document) throws {
            self = try JSONCoding.decode(Self.self, from: document.body)
        }

        /// Decodes the document currently published for a scene.
        init(of key: String, on board: PublicationBoard) throws {
            let document = try #require(board.document(.scene(key)), "nothing is published for '\(key)'")
            try self.init(document)
        }
    }

    /// A wait that ended without the document the test was waiting for.
    struct WaitFailure: Error, CustomStringConvertible {
        let description: String
    }
}

extension PublicationBoard {
    /// Waits, through ``next(after:on:timeout:)``, until the document of `topic` satisfies
    /// `condition`, and returns it. The timeout is only a safety net against a hanging test.
    func waitForDocument(on topic: Topic, timeout: Duration = .seconds(30), where condition: (Document) throws -> Bool) async throws -> Document {
        while true {
            let current = document(topic)
            if let current, try condition(current) { return current }
            switch await next(after: current?.version ?? 0, on: topic, timeout: timeout) {
            case .newer: continue
            case .closed: throw Core.WaitFailure(description: "the board closed while waiting on \(topic)")
            case .timedOut: throw Core.WaitFailure(description: "nothing suitable was published on \(topic)")
            case .cancelled: throw CancellationError()
            }
        }
    }

    /// Waits until the scene under `key` reaches a lifecycle state.
    @discardableResult
    func waitForLifecycle(_ lifecycle: Lifecycle.State, of key: String) async throws -> Document {
        try await waitForDocument(on: .scene(key)) { document in
            try JSONCoding.decode(LifecycleOnly.self, from: document.body).lifecycle == lifecycle
        }
    }
}

private struct LifecycleOnly: Decodable {
    let lifecycle: Lifecycle.State
}
