import Foundation
import Testing

@testable import MVVMServer

extension Internals {
    /// Letting go of the executable's pages once the server has started.
    @Suite("The code that ran only at start, let go")
    struct StartupCodeTests {
        private static let smaps = """
            55d0a0000000-55d0a0100000 r--p 00000000 fe:01 1234 /opt/app/server
            Size:               1024 kB
            Rss:                 512 kB
            Anonymous:             0 kB
            VmFlags: rd mr mw me dw sd
            55d0a0100000-55d0a0900000 r-xp 00100000 fe:01 1234 /opt/app/server
            Rss:                4096 kB
            Anonymous:             0 kB
            55d0a0900000-55d0a0a00000 r--p 00900000 fe:01 1234 /opt/app/server
            Rss:                1024 kB
            Anonymous:            12 kB
            55d0a0a00000-55d0a0b00000 rw-p 00a00000 fe:01 1234 /opt/app/server
            Anonymous:             0 kB
            7f0000000000-7f0000100000 r-xp 00000000 fe:01 99 /usr/lib/libc.so.6
            Anonymous:             0 kB
            7f0000200000-7f0000300000 rw-p 00000000 00:00 0
            Anonymous:          1024 kB
            7f0000300000-7f0000400000 r-xs 00000000 fe:01 1234 /opt/app/server
            Anonymous:             0 kB
            7f0000400000-7f0000500000 r-xp 00000000 fe:01 77 /opt/app/server with spaces
            Anonymous:             0 kB
            7f0000500000-7f0000600000 r-xp 00000000 fe:01 1234 /opt/app/server
            """

        @Test("Only the executable's private, unwritable mappings with no page of their own are let go")
        func choosesMappings() {
            let mappings = StartupCode.mappings(inSmaps: Self.smaps)
            #expect(mappings.count == 9)
            #expect(mappings[5].path == "" && mappings[5].anonymousKilobytes == 1024)
            #expect(mappings[7].path == "/opt/app/server with spaces")
            #expect(mappings[8].anonymousKilobytes == Int.max, "no Anonymous line read: unknown, so kept")
            let chosen = StartupCode.releasable(in: mappings, of: "/opt/app/server")
            #expect(chosen.map(\.start) == [0x55d0_a000_0000, 0x55d0_a010_0000])
            #expect(chosen.map { $0.end - $0.start } == [0x10_0000, 0x80_0000])
        }

        /// The resident kB of this process's mappings of `file`.
        private static func residentKilobytes(of file: String) throws -> Int {
            let text = try #require(StartupCode.ownSmaps())
            var total = 0
            var inFile = false
            for line in text.split(separator: "\n") {
                if line.contains("-"), line.split(separator: " ").count >= 5, !line.hasSuffix("kB") {
                    inFile = line.hasSuffix(" " + file)
                } else if inFile, line.hasPrefix("Rss:") {
                    total += Int(line.split(separator: " ")[1]) ?? 0
                }
            }
            return total
        }

        // A mapping of a file of its own, not the test process's code: letting go of the code of
        // a process that runs hundreds of tests at once stalled them all for seconds while they
        // mapped it again (two fresh-clone runs here, where a test of 1 ms took 2 to 4 s).
        @Test("A private, unwritable mapping's resident pages are let go, and its bytes read the same after")
        func releasesAMapping() throws {
            #if os(Linux)
                let size = 1 << 20
                let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("startup-code-\(UUID().uuidString)")
                try Data(bytes).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let path = file.resolvingSymlinksInPath().path
                let descriptor = open(path, O_RDONLY)
                try #require(descriptor >= 0)
                defer { close(descriptor) }
                let mapped = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0))
                try #require(mapped != MAP_FAILED)
                defer { munmap(mapped, size) }
                let view = UnsafeRawBufferPointer(start: mapped, count: size)
                // Every page read, so every page resident.
                #expect(view.elementsEqual(bytes))
                let before = try Self.residentKilobytes(of: path)
                #expect(before >= size / 1024 / 2, "resident kB of the mapping before: \(before)")
                #expect(StartupCode.release(mappingsOf: path) == size)
                let after = try Self.residentKilobytes(of: path)
                #expect(after < before, "resident kB of the mapping: \(before) before, \(after) after")
                // What was let go is read again from the file.
                #expect(view.elementsEqual(bytes))
                #expect(try Self.residentKilobytes(of: path) > 0)
            #endif
        }
    }
}
