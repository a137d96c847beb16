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
    }
}
