import Foundation
import OpenAPIRuntime

/// Where a view model is in its lifecycle.
public enum SceneLifecycle: String, Sendable, Equatable, Codable {
    /// Made, not set up yet.
    case initialized
    /// Set up, not loading yet.
    case setuped
    /// Loading.
    case loading
    /// Loaded.
    case loaded
    /// Being cleared.
    case unloading
}

/// One version of a scene's state, decoded into the app's `Input` and `Output` types.
public struct SceneState<Input: Decodable & Sendable, Output: Decodable & Sendable>: Sendable {
    /// The scene's name.
    public var scene: String
    /// The store key.
    public var key: String
    /// Where the view model is in its lifecycle.
    public var lifecycle: SceneLifecycle
    /// The version: it grows with every change of the state.
    public var version: UInt64
    /// The input.
    public var input: Input
    /// The output, always defined.
    public var output: Output
    /// The last error that the load or an action threw; `nil` once one succeeds.
    public var error: String?

    /// Whether the view model has loaded.
    public var isLoaded: Bool {
        lifecycle == .loaded
    }

    init(_ document: Components.Schemas.StateDocument) throws {
        scene = document.scene
        key = document.key
        lifecycle = SceneLifecycle(rawValue: document.lifecycle.rawValue) ?? .initialized
        version = UInt64(clamping: document.version)
        input = try ContainerDecoding.decode(Input.self, from: document.input)
        output = try ContainerDecoding.decode(Output.self, from: document.output)
        error = document.error
    }
}

extension SceneState: Equatable where Input: Equatable, Output: Equatable {}

/// Decodes the generated client's JSON containers into the app's own types.
enum ContainerDecoding {
    static func decode<Value: Decodable>(_ type: Value.Type, from container: some Encodable) throws -> Value {
        try JSONDecoder().decode(Value.self, from: try JSONEncoder().encode(container))
    }

    static func container<Container: Decodable>(_ type: Container.Type, encoding value: some Encodable) throws -> Container {
        try JSONDecoder().decode(Container.self, from: try JSONEncoder().encode(value))
    }
}
