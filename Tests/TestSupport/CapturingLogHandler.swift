import Logging
import Synchronization

/// One log event written through ``CapturingLogHandler``.
public struct CapturedLogLine: Sendable {
    /// The level.
    public let level: Logger.Level
    /// The message.
    public let message: String
    /// The event's metadata, each value as its description.
    public let metadata: [String: String]
}

/// Log events written through ``CapturingLogHandler``.
public final class CapturedLogLines: Sendable {
    private let lines = Mutex<[CapturedLogLine]>([])

    /// No lines yet.
    public init() {}

    /// Keeps a line.
    public func append(_ line: CapturedLogLine) {
        lines.withLock { $0.append(line) }
    }

    /// The lines so far.
    public var all: [CapturedLogLine] {
        lines.withLock { $0 }
    }
}

/// A log handler that keeps each event's level, message and metadata.
public struct CapturingLogHandler: LogHandler {
    /// Where the lines go.
    public let lines: CapturedLogLines
    /// Every level by default.
    public var logLevel: Logger.Level = .trace
    /// The handler's metadata.
    public var metadata: Logger.Metadata = [:]

    /// A handler writing to `lines`.
    public init(lines: CapturedLogLines) {
        self.lines = lines
    }

    /// A metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Keeps the event.
    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        lines.append(CapturedLogLine(level: event.level, message: event.message.description, metadata: merged.mapValues(\.description)))
    }
}
