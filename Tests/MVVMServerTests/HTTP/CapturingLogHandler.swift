import Logging
import Synchronization

/// One log event written through ``CapturingLogHandler``.
struct CapturedLogLine: Sendable {
    let level: Logger.Level
    let message: String
    /// The event's metadata, each value as its description.
    let metadata: [String: String]
}

/// Log events written through ``CapturingLogHandler``.
final class CapturedLogLines: Sendable {
    private let lines = Mutex<[CapturedLogLine]>([])

    func append(_ line: CapturedLogLine) {
        lines.withLock { $0.append(line) }
    }

    var all: [CapturedLogLine] {
        lines.withLock { $0 }
    }
}

/// A log handler that keeps each event's level, message and metadata.
struct CapturingLogHandler: LogHandler {
    let lines: CapturedLogLines
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        lines.append(CapturedLogLine(level: event.level, message: event.message.description, metadata: merged.mapValues(\.description)))
    }
}
