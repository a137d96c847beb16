import Foundation

/// A property of a parser that one input broke: the fuzzer stops on it as on a crash, and the
/// corpus replay reports it with the file that broke it.
struct PropertyViolation: Error, CustomStringConvertible {
    let target: String
    let message: String

    var description: String {
        "[\(target)] property violated: \(message)"
    }
}

/// Checks one property of one fuzz target.
struct Checker {
    let target: String

    func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(PropertyViolation) {
        if !condition { throw PropertyViolation(target: target, message: message()) }
    }

    func fail(_ message: String) -> PropertyViolation {
        PropertyViolation(target: target, message: message)
    }
}

/// The fuzz targets, by the name that `FUZZ_TARGET` (libFuzzer) or the first argument (replay) gives.
///
/// Each takes arbitrary bytes, drives one request-facing parser with them and checks properties
/// of what it answers (not only that it does not crash): see each target's documentation.
enum FuzzTargets {
    /// One fuzz target: takes the input's bytes, throws when a property does not hold.
    typealias Run = @Sendable ([UInt8]) throws(PropertyViolation) -> Void

    static let all: [(name: String, run: Run)] = [
        ("path", PathFuzz.run),
        ("query", QueryFuzz.run),
        ("longpoll", LongPollFuzz.run),
        ("json", JSONFuzz.run),
        ("input", InputFuzz.run),
    ]

    static var names: [String] {
        all.map(\.name)
    }

    static func target(named name: String) -> Run? {
        all.first { $0.name == name }?.run
    }
}
