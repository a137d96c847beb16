import Foundation

#if FUZZING

    /// libFuzzer's driver (in clang's `libclang_rt.fuzzer`, linked by `-sanitize=fuzzer`). SwiftPM links
    /// an executable's entry point as `main`, which hides libFuzzer's own `main`, so the entry point
    /// below starts the driver itself. Declared by its symbol: its arguments (two pointers and a C
    /// function pointer) pass the same way in Swift's and C's calling conventions.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// The target this libFuzzer binary runs, named by `FUZZ_TARGET` (path, query, longpoll, json, input).
    private let selectedTarget: FuzzTargets.Run? = ProcessInfo.processInfo.environment["FUZZ_TARGET"].flatMap(FuzzTargets.target(named:))

    /// One input from libFuzzer; a broken property aborts, which libFuzzer records as a crash.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try selectedTarget?(bytes)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            abort()
        }
        return 0
    }

    /// With libFuzzer: `FUZZ_TARGET=<target> Fuzzers [libFuzzer flags] [corpus dirs or files]`.
    @main
    struct FuzzerCommand {
        static func main() {
            guard selectedTarget != nil else {
                FileHandle.standardError.write(Data("Set FUZZ_TARGET to one of: \(FuzzTargets.names.joined(separator: ", ")).\n".utf8))
                exit(2)
            }
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, fuzzerTestOneInput))
        }
    }

#else

    /// Without libFuzzer: replays corpora through the fuzz targets, as a fast regression test.
    ///
    ///     Fuzzers <target> <file-or-dir>...     replays the files through one target
    ///     Fuzzers all <corpus-root>             replays <corpus-root>/<target>/ for every target
    ///
    /// `-v` names each file before running it (to find one that traps). Exits 1 when any file
    /// breaks a property of its target.
    @main
    struct ReplayCommand {
        static func main() {
            var arguments = Array(CommandLine.arguments.dropFirst())
            let verbose = arguments.contains("-v")
            arguments.removeAll { $0 == "-v" }
            guard arguments.count >= 2 else { usage() }
            let jobs: [(target: String, paths: [String])]
            if arguments[0] == "all" {
                guard arguments.count == 2 else { usage() }
                jobs = FuzzTargets.names.map { ($0, [arguments[1] + "/" + $0]) }
            } else {
                guard FuzzTargets.target(named: arguments[0]) != nil else { usage() }
                jobs = [(arguments[0], Array(arguments.dropFirst()))]
            }
            var failures = 0
            var total = 0
            for job in jobs {
                let run = FuzzTargets.target(named: job.target)!
                let files = job.paths.flatMap(files(at:))
                if files.isEmpty {
                    print("\(job.target): no corpus files in \(job.paths.joined(separator: " "))")
                    failures += 1
                    continue
                }
                let start = ContinuousClock.now
                var broken = 0
                for file in files {
                    if verbose { FileHandle.standardError.write(Data("\(job.target) \(file)\n".utf8)) }
                    guard let data = FileManager.default.contents(atPath: file) else {
                        print("\(job.target): cannot read \(file)")
                        broken += 1
                        continue
                    }
                    do {
                        try run(Array(data))
                    } catch {
                        print("\(file): \(error)")
                        broken += 1
                    }
                }
                total += files.count
                failures += broken
                let elapsed = ContinuousClock.now - start
                print("\(job.target): \(files.count) inputs replayed, \(broken) broken (\(elapsed.formatted(.units(allowed: [.milliseconds]))))")
            }
            print("fuzz-replay: \(total - failures) passed, \(failures) failed")
            exit(failures == 0 ? 0 : 1)
        }

        /// The regular files at a path: itself, or those in the folder (not recursive), sorted.
        static func files(at path: String) -> [String] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
            guard isDirectory.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.sorted().map { path + "/" + $0 }.filter { file in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && !isFolder.boolValue && !file.hasSuffix("/README.md")
            }
        }

        static func usage() -> Never {
            let targets = FuzzTargets.names.joined(separator: "|")
            FileHandle.standardError.write(Data("usage: Fuzzers [-v] <\(targets)> <file-or-dir>...\n       Fuzzers [-v] all <corpus-root>\n".utf8))
            exit(2)
        }
    }

#endif
