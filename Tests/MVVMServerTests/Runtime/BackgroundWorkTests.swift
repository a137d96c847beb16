import Synchronization
import TestSupport
import Testing

@testable import MVVMServer

extension Internals {
    /// The work the application starts on its own, owned by its run.
    @Suite("Background work")
    struct BackgroundWorkTests {
        @Test("Work started before the intake opens, or after its run ended, is refused and never runs")
        func refusedOutsideARun() async throws {
            let work = BackgroundWork(logger: .init(label: "test"))
            let ran = Tally()
            #expect(!work.start { ran.increment() })
            let pieces = try #require(work.open())
            #expect(work.open() == nil)
            let run = Task { await work.run(pieces) }
            #expect(work.start { ran.increment() })
            try await ran.wait(untilAtLeast: 1)
            run.cancel()
            await run.value
            #expect(!work.start { ran.increment() })
            try await Task.sleep(for: .milliseconds(20))
            #expect(ran.value == 1)
            // The intake can open again for a new run.
            #expect(work.open() != nil)
        }

        @Test("A run returns only once every piece has ended: the pieces still running are cancelled, and the run waits for them")
        func runWaitsForItsPieces() async throws {
            let work = BackgroundWork(logger: .init(label: "test"))
            let pieces = try #require(work.open())
            let started = Tally()
            let ended = Tally()
            let run = Task { await work.run(pieces) }
            for _ in 0..<20 {
                work.start {
                    started.increment()
                    // Waits until cancelled, then takes a moment more before it ends.
                    while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
                    try? await Task.sleep(for: .zero)
                    ended.increment()
                }
            }
            try await started.wait(untilAtLeast: 20)
            #expect(ended.value == 0)
            run.cancel()
            await run.value
            #expect(ended.value == 20)
        }
    }
}
