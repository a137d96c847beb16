import MVVMCore
import MVVMHTTP
import Synchronization

/// What the application holds now, as the framework's own tests and routes read it.
extension Application {
    /// Requests whose connection is parked now (long-polls, and other requests waiting for
    /// their answer), as the HTTP runtime counts them.
    package var parkedConnectionCount: Int {
        server.withLock { $0?.parkedRequestCount ?? 0 }
    }

    /// Server-Sent Events streams open now, as the HTTP runtime counts them.
    package var openStreamCount: Int {
        server.withLock { $0?.openStreamCount ?? 0 }
    }

    /// Streams cut off because their client went away while they waited.
    package var streamsCutOffCount: Int {
        server.withLock { $0?.streamsCutOffCount ?? 0 }
    }

    /// Connections open now, as the HTTP runtime counts them (0 when it does not serve).
    package var openConnectionCount: Int {
        server.withLock { $0?.openConnectionCount ?? 0 }
    }

    /// The open state store, if any.
    package var savedSessions: (any StateStore)? {
        saved.store
    }
}
