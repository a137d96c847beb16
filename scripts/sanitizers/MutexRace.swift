// Shows why scripts/sanitizers/thread.supp exists: ThreadSanitizer does not see the lock of
// Synchronization.Mutex on Linux. Every access below holds the lock except `unprotected`,
// yet TSan reports the Mutex's value too. With the suppressions only the real race is left:
//
//   swiftc -sanitize=thread -swift-version 6 scripts/sanitizers/MutexRace.swift -o /tmp/mutex-race
//   /tmp/mutex-race                                                               # both kinds
//   TSAN_OPTIONS=suppressions=$PWD/scripts/sanitizers/thread.supp /tmp/mutex-race  # only `unprotected`
import Foundation
import Synchronization

final class Box: @unchecked Sendable {
    let state = Mutex<[Int: Int]>([:])
    var unprotected = 0
}

let box = Box()
let threads = (0..<4).map { n in
    Thread {
        for i in 0..<2000 {
            box.state.withLock { $0[i % 7, default: 0] += n }
            box.unprotected += 1
        }
    }
}
threads.forEach { $0.start() }
Thread.sleep(forTimeInterval: 1)
print(box.state.withLock { $0.count }, box.unprotected)
