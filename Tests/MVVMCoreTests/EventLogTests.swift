import MVVMCore
import MVVMJSON
import MVVMSupport
import Testing

extension Core {
    /// The event log is bounded: past its capacity the oldest events are dropped, and reading
    /// after a dropped one says so.
    @Suite("Event log bounds")
    struct EventLogBoundsTests {
        @Test("Past many times its capacity, the log keeps the newest events in order")
        func keepsTheNewest() {
            let log = EventLog(capacity: 4)
            for seq in 1...23 {
                log.append(ContextEvent(seq: UInt64(seq), key: "counter", type: "didUpdate"))
            }
            #expect(log.lastSeq == 23)
            #expect(log.lastDroppedSeq == 19)
            #expect(log.events(after: 19)?.map(\.seq) == [20, 21, 22, 23])
            #expect(log.events(after: 21)?.map(\.seq) == [22, 23])
            #expect(log.events(after: 23)?.isEmpty == true)
            #expect(log.events(after: 18) == nil, "event 19 was dropped: the client must re-read the state")
        }

        @Test("A log that starts after a number (a restored session's) counts the numbers up to it as dropped")
        func startsAfterANumber() {
            let log = EventLog(capacity: 4, start: 8)
            #expect(log.lastDroppedSeq == 8)
            #expect(log.lastSeq == 8)
            #expect(log.events(after: 3) == nil, "events 4 to 8 are not kept: the client must re-read the state")
            #expect(log.events(after: 8)?.isEmpty == true)
            log.append(ContextEvent(seq: 9, key: "counter", type: "didSetup"))
            #expect(log.events(after: 8)?.map(\.seq) == [9])
            #expect(log.events(after: 7) == nil)
        }

        @Test("Appends, reads and discards, through growth and wrapping, match a list of the newest events", arguments: [1, 3, 10, 16, 40])
        func matchesAListOfTheNewest(capacity: Int) {
            let log = EventLog(capacity: capacity)
            // The reference: every event kept, oldest first, and the newest number dropped.
            var kept: [UInt64] = []
            var dropped: UInt64 = 0
            var seq: UInt64 = 0
            // A fixed pseudo-random sequence (Knuth's linear congruential step), the same every run.
            var random = UInt64(capacity)
            func next() -> UInt64 {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return random >> 33
            }
            for _ in 0..<2_000 {
                if next() % 10 == 0, let last = kept.last {
                    // A change that could not be saved: its events (up to three) go.
                    let keep = last - min(last - dropped, next() % 4)
                    log.discard(after: keep)
                    kept.removeAll { $0 > keep }
                } else {
                    seq += 1
                    log.append(ContextEvent(seq: seq, key: "counter", type: "didUpdate", changes: ["count"]))
                    kept.append(seq)
                    if kept.count > capacity { dropped = kept.removeFirst() }
                }
                #expect(log.lastSeq == (kept.last ?? dropped))
                #expect(log.lastDroppedSeq == dropped)
                #expect(log.events(after: dropped)?.map(\.seq) == kept)
                if let middle = kept.dropFirst(kept.count / 2).first {
                    #expect(log.events(after: middle)?.map(\.seq) == kept.filter { $0 > middle })
                }
                if dropped > 0 { #expect(log.events(after: dropped - 1) == nil) }
            }
        }
    }
}
