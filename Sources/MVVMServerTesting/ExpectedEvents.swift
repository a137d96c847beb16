import Foundation
import MVVMClient
import OpenAPIRuntime

/// The events a change of a scene's state gives, as the framework records them: one per
/// lifecycle step, and `didUpdate` with the changed output members when the output of a scene
/// that is loaded afterwards changed (a load that ends with a new output gives both `didLoad`
/// and `didUpdate`).
enum ExpectedEvents {
    /// One expected event.
    struct Event: CustomStringConvertible {
        let type: String
        /// For `didUpdate`, the changed members.
        let changes: Set<String>?

        func matches(_ event: SessionEvent) -> Bool {
            event.type == type && (changes == nil || Set(event.changes ?? []) == changes)
        }

        var description: String {
            type + (changes.map { " \($0.sorted())" } ?? "")
        }
    }

    private static let order: [SceneLifecycle] = [.initialized, .setuped, .loading, .loaded]
    private static let stepEvents = ["didSetup", "willLoad", "didLoad"]

    static func between<State: Encodable>(_ old: State, _ new: State) -> [Event] where State: LifecycleCarrying {
        var events: [Event] = []
        if new.lifecycle == .unloading, old.lifecycle != .unloading {
            events.append(Event(type: "willUnload", changes: nil))
        } else if let from = order.firstIndex(of: old.lifecycle), let to = order.firstIndex(of: new.lifecycle), to > from {
            events += stepEvents[from..<to].map { Event(type: $0, changes: nil) }
        }
        // A loaded view model's output change, including the one its load's end made.
        if new.lifecycle == .loaded {
            let changed = changedMembers(old.outputJSON, new.outputJSON)
            if !changed.isEmpty { events.append(Event(type: "didUpdate", changes: changed)) }
        }
        return events
    }

    /// The top-level members that differ between two outputs (`value` when they are not
    /// JSON objects and differ).
    private static func changedMembers(_ old: OpenAPIValueContainer?, _ new: OpenAPIValueContainer?) -> Set<String> {
        guard let old = old?.value as? [String: (any Sendable)?], let new = new?.value as? [String: (any Sendable)?] else {
            return old == new ? [] : ["value"]
        }
        var changed: Set<String> = []
        for key in Set(old.keys).union(new.keys) {
            let before = try? OpenAPIValueContainer(unvalidatedValue: old[key] ?? nil)
            let after = try? OpenAPIValueContainer(unvalidatedValue: new[key] ?? nil)
            if old[key] == nil || new[key] == nil || before != after { changed.insert(key) }
        }
        return changed
    }
}

/// A state whose lifecycle and output the expected events are derived from.
protocol LifecycleCarrying {
    var lifecycle: SceneLifecycle { get }
    /// The output as a JSON value.
    var outputJSON: OpenAPIValueContainer? { get }
}

extension SceneStore.State: LifecycleCarrying {
    var outputJSON: OpenAPIValueContainer? {
        guard let data = try? JSONEncoder().encode(output) else { return nil }
        return try? JSONDecoder().decode(OpenAPIValueContainer.self, from: data)
    }
}
