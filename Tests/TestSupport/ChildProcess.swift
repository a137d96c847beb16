#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program run as a child process with its standard output on a pipe, through posix_spawn
/// (Foundation's `Process` keeps memory that LeakSanitizer reports on Linux).
public final class ChildProcess: Sendable {
    /// Why a child could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// The child's process id.
    public let pid: pid_t
    /// The reading end of the pipe on the child's standard output.
    private let output: Int32

    /// Starts `path` with `arguments`; its standard error is the test's.
    public init(_ path: String, _ arguments: [String]) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Failure(description: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, nil, argv, environ)
        close(ends[1])
        guard status == 0 else {
            close(ends[0])
            throw Failure(description: "posix_spawn \(path) failed: \(status)")
        }
        pid = child
        output = ends[0]
    }

    deinit {
        close(output)
    }

    /// The first line the child writes to its standard output (blocking until it is written or
    /// the child closes its output); run it off the cooperative pool.
    public func firstLine() -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(output, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// How the child ended, once it has, within `timeout`: its exit status, or `nil` when it was
    /// killed by a signal or has not ended (then it is killed).
    public func exitStatus(within timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return nil
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    }
}
