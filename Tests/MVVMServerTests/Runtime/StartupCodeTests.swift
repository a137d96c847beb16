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

        private static func executableResidentKilobytes() throws -> Int {
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            let text = try #require(StartupCode.ownSmaps())
            var total = 0
            var inExecutable = false
            for line in text.split(separator: "\n") {
                if line.contains("-"), line.split(separator: " ").count >= 5, !line.hasSuffix("kB") {
                    inExecutable = line.hasSuffix(" " + executable)
                } else if inExecutable, line.hasPrefix("Rss:") {
                    total += Int(line.split(separator: " ")[1]) ?? 0
                }
            }
            return total
        }

        @Test("In this process, the executable's resident pages shrink, and its code goes on running")
        func releasesInProcess() throws {
            #if os(Linux)
                let before = try Self.executableResidentKilobytes()
                let released = StartupCode.release()
                let after = try Self.executableResidentKilobytes()
                #expect(released > 0)
                #expect(after < before, "resident kB of the executable: \(before) before, \(after) after")
                // The code let go runs again, mapped anew from the page cache.
                #expect(String(describing: (1...3).map { $0 * 2 }) == "[2, 4, 6]")
                #expect(try Self.executableResidentKilobytes() > 0)
            #endif
        }
    }
}
