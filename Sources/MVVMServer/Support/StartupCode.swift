import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lets go of the resident pages of the executable's code and read-only data once the server
/// has started, so that what ran only at start (parsing the settings, describing the contract,
/// opening and restoring the state store) stops counting in the process's resident size.
///
/// The pages stay in the system's page cache: code that runs again is mapped again from there
/// on its first use, as the kernel does after reclaiming clean pages under memory pressure.
/// Only mappings of the executable's own file that are private, not writable, and hold no page
/// of their own (no copy-on-write page, so nothing is lost) are touched. On other systems, and
/// when `/proc` cannot be read, it does nothing.
enum StartupCode {
    /// One mapping of `/proc/self/smaps`.
    struct Mapping: Equatable {
        let start: UInt
        let end: UInt
        let permissions: String
        let path: String
        /// The mapping's pages that are the process's own rather than the file's, in kB.
        var anonymousKilobytes: Int
    }

    /// Lets go of the executable's clean pages; returns the bytes of the mappings it let go.
    @discardableResult
    static func release() -> Int {
        #if os(Linux)
            guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return 0 }
            return release(mappingsOf: executable)
        #else
            return 0
        #endif
    }

    /// Lets go of the resident pages of this process's private, unwritable mappings of `file`
    /// that hold no page of their own; returns the bytes of the mappings it let go.
    static func release(mappingsOf file: String) -> Int {
        #if os(Linux)
            guard let text = ownSmaps() else { return 0 }
            var released = 0
            for mapping in releasable(in: mappings(inSmaps: text), of: file) {
                let length = Int(mapping.end - mapping.start)
                if madvise(UnsafeMutableRawPointer(bitPattern: mapping.start), length, MADV_DONTNEED) == 0 {
                    released += length
                }
            }
            return released
        #else
            return 0
        #endif
    }

    /// The text of `/proc/self/smaps`, read to its end (its size reads as 0, so it is read
    /// until a read returns nothing); `nil` when it cannot be read.
    static func ownSmaps() -> String? {
        guard let smaps = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return nil }
        defer { try? smaps.close() }
        return String(data: smaps.readDataToEndOfFile(), encoding: .utf8)
    }

    /// The mappings of `executable` in `mappings` whose pages may be let go: private, readable
    /// and not writable, with no page of the process's own.
    static func releasable(in mappings: [Mapping], of executable: String) -> [Mapping] {
        mappings.filter { mapping in
            mapping.path == executable && mapping.anonymousKilobytes == 0 && mapping.permissions.hasPrefix("r")
                && mapping.permissions.dropFirst().first == "-" && mapping.permissions.hasSuffix("p")
        }
    }

    /// The mappings `/proc/self/smaps` lists in `text`, with their `Anonymous` sizes.
    static func mappings(inSmaps text: String) -> [Mapping] {
        var mappings: [Mapping] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Anonymous:") {
                let kilobytes = line.dropFirst("Anonymous:".count).split(separator: " ").first.flatMap { Int($0) }
                if !mappings.isEmpty { mappings[mappings.count - 1].anonymousKilobytes = kilobytes ?? Int.max }
                continue
            }
            // A mapping's first line: start-end perms offset dev inode [path].
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, let dash = fields[0].firstIndex(of: "-"),
                let start = UInt(fields[0][..<dash], radix: 16), let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16),
                fields[1].count == 4
            else { continue }
            let path = fields.count == 6 ? String(fields[5].drop(while: { $0 == " " })) : ""
            // Unknown until its Anonymous line: not releasable without it.
            mappings.append(Mapping(start: start, end: end, permissions: String(fields[1]), path: path, anonymousKilobytes: Int.max))
        }
        return mappings
    }
}
