import MVVMCore
import Synchronization
import Testing

/// ``ManualClock``: time that moves only when told, in steps of its sleepers' deadlines.
@Suite("The manual clock", .timeLimit(.minutes(1)))
struct ManualClockTests {
    /// Waits until `count` sleeps wait on `clock`.
    private static func sleepers(_ count: Int, on clock: ManualClock) async {
        while clock.sleeperCount < count { await Task.yield() }
    }

    @Test("A sleep ends when the clock reaches its deadline, not before; one already due ends at once")
    func sleepEndsAtItsDeadline() async throws {
        let clock = ManualClock()
        let ended = Atomic<Bool>(false)
        let sleeper = Task {
            try await clock.sleep(for: .seconds(10))
            ended.store(true, ordering: .sequentiallyConsistent)
        }
        await Self.sleepers(1, on: clock)
        #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(10)))
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        let endedEarly = ended.load(ordering: .sequentiallyConsistent)
        #expect(!endedEarly)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        let endedAtDeadline = ended.load(ordering: .sequentiallyConsistent)
        #expect(endedAtDeadline)
        #expect(clock.now == ManualClock.Instant(offset: .seconds(10)))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(3)))
    }

    @Test("A cancelled sleep throws CancellationError and leaves the clock, whether cancelled before or while it waits")
    func cancellation() async throws {
        let clock = ManualClock()
        let waiting = Task { try await clock.sleep(for: .seconds(5)) }
        await Self.sleepers(1, on: clock)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(clock.sleeperCount == 0)

        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(5))
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("Moving in steps wakes the earliest deadline first and stops at the target")
    func steps() async throws {
        let clock = ManualClock()
        let first = Task { try await clock.sleep(for: .seconds(2)) }
        let second = Task { try await clock.sleep(for: .seconds(7)) }
        await Self.sleepers(2, on: clock)
        let target = ManualClock.Instant(offset: .seconds(5))
        #expect(clock.wakeNext(notAfter: target))
        #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
        try await first.value
        #expect(!clock.wakeNext(notAfter: target))
        #expect(clock.now == target)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(2))
        try await second.value
        #expect(clock.now == ManualClock.Instant(offset: .seconds(7)))
    }
}
