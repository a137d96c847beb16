import Synchronization
import TestSupport

extension Core {
    /// A thread-safe list of what happened, in order: fixtures append, tests read, and a test
    /// can wait until a number of entries has been recorded.
    final class Recorder: Sendable {
        private let entries = Mutex<[String]>([])
        private let count = Tally()

        /// Appends an entry.
        func record(_ entry: String) {
            entries.withLock { $0.append(entry) }
            count.increment()
        }

        /// Everything recorded so far, oldest first.
        var recorded: [String] {
            entries.withLock { $0 }
        }

        /// Returns once at least `count` entries have been recorded.
        func waitForEntries(_ count: Int) async throws {
            try await self.count.wait(untilAtLeast: count)
        }
    }
}
