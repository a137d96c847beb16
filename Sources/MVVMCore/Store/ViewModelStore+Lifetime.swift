/// What the store keeps for as long as a view model lives, and ends when it is cleared: the
/// tasks it runs and the resources it holds.
extension ViewModelStore {
    /// A new number to keep a task under (``track(_:number:key:)``), taken before the task is
    /// made so that the task can let go of itself when it ends (``taskEnded(_:key:)``).
    package func nextTaskNumber() -> UInt64 {
        lastTaskNumber += 1
        return lastTaskNumber
    }

    /// Keeps a task of the view model under a key, to be cancelled when it is cleared, until it
    /// ends (``taskEnded(_:key:)``); cancels it at once when that view model is already cleared.
    package func track(_ task: Task<Void, Never>, number: UInt64, key: String) {
        guard let entry = entry(key), !entry.isCleared else {
            task.cancel()
            return
        }
        entry.tasks[number] = task
    }

    /// Lets go of a task that has ended, so that a long-lived view model's finished loads and
    /// launched tasks do not pile up.
    package func taskEnded(_ number: UInt64, key: String) {
        guard let entry = entry(key) else { return }
        entry.tasks.removeValue(forKey: number)
        // An empty table keeps its storage: a view model whose tasks have all ended holds none.
        if entry.tasks.isEmpty { entry.tasks = [:] }
    }

    /// How many tasks of the view model under a key are kept (running, or not yet let go of).
    package func trackedTaskCount(key: String) -> Int {
        entry(key)?.tasks.count ?? 0
    }

    /// Adds a resource to close when the view model under a key is cleared; closed at once
    /// when that view model is already cleared.
    package func addResource(_ resource: some ViewModelResource, key: String) {
        guard let entry = entry(key), !entry.isCleared else {
            resource.close()
            return
        }
        entry.resources.append(resource)
    }
}
