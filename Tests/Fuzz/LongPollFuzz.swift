import MVVMHTTP

/// `RequestParsers.longPoll`: the `since` and `wait` of a long-poll (the first input byte picks
/// the server's maximum wait, the rest is the raw query string).
///
/// Properties: `since` is accepted exactly when it is 1 to 20 decimal digits whose value fits in
/// a UInt64, and is then that value; `wait` is accepted exactly when it matches the contract's
/// `^([0-9]+\.?[0-9]*|\.[0-9]+)$` in at most 32 characters, and is then never negative, never
/// above the maximum, and the asked seconds cut to the maximum, to the millisecond; a rejection
/// is a 400 `invalid-parameter` naming the first parameter at fault; an absent one is `nil`.
enum LongPollFuzz {
    /// Maximum waits a server may be configured with, in seconds.
    static let maxWaits: [Double] = [0, 0.001, 0.25, 1, 30, 60, 3600, 86_400, 1e6, 1e9]

    static func run(_ data: [UInt8]) throws(PropertyViolation) {
        let check = Checker(target: "longpoll")
        guard let first = data.first else { return }
        let maxWait = maxWaits[Int(first) % maxWaits.count]
        let raw = String(decoding: data.dropFirst(), as: UTF8.self)
        guard let query = RequestParsers.query(raw) else { return }

        let sinceText = query["since"]
        let waitText = query["wait"]
        let expectedSince = sinceText.map(Self.since)
        let expectedWait = waitText.map(Self.isWait)
        let sinceValid = expectedSince.map { $0 != nil } ?? true
        let waitValid = expectedWait ?? true

        let answer: (since: UInt64?, wait: Duration?)
        do {
            answer = try RequestParsers.longPoll(query, maxWait: maxWait)
        } catch {
            try check.expect(
                !sinceValid || !waitValid,
                "since=\(String(describing: sinceText)) wait=\(String(describing: waitText)) are valid but were rejected: \(error.detail)")
            try check.expect(
                error.kind.status == 400 && error.kind.slug == "invalid-parameter", "a rejection answered \(error.kind.status) \(error.kind.slug)")
            let faulty = sinceValid ? "wait" : "since"
            try check.expect(
                error.member == faulty,
                "the rejection of since=\(String(describing: sinceText)) wait=\(String(describing: waitText)) names \(String(describing: error.member)), not \(faulty)"
            )
            return
        }
        try check.expect(sinceValid && waitValid, "since=\(String(describing: sinceText)) wait=\(String(describing: waitText)) were accepted")
        try check.expect(answer.since == expectedSince ?? nil, "since=\(String(describing: sinceText)) gave \(String(describing: answer.since))")
        guard let waitText else {
            try check.expect(answer.wait == nil, "no wait was sent but the answer has \(String(describing: answer.wait))")
            return
        }
        guard let wait = answer.wait else { throw check.fail("wait=\(waitText.debugDescription) was accepted but the answer has none") }
        try check.expect(wait >= .zero, "wait=\(waitText.debugDescription) gave a negative wait \(wait)")
        try check.expect(wait <= .seconds(maxWait), "wait=\(waitText.debugDescription) gave \(wait), above the maximum \(maxWait) s")
        let asked = Double(waitText) ?? .nan
        let cut = Duration.seconds(min(asked, maxWait))
        // Cut to whole milliseconds. The reference goes through a Double, which near 10^9 seconds
        // is only good to about 0.1 µs, while the product reads the decimal digits exactly (found
        // by libFuzzer: wait=999000003.99900000990 gave exactly 999000003.999 s, a hair above the
        // Double's value); so the comparison allows one unit in the last place of that Double.
        let slack = Duration.nanoseconds(1) + .seconds(min(asked, maxWait).ulp)
        try check.expect(
            wait <= cut + slack && cut - wait < .milliseconds(1) + slack,
            "wait=\(waitText.debugDescription) (max \(maxWait)) gave \(wait), expected \(cut) to the millisecond")
    }

    /// The value of a valid `since`: 1 to 20 digits, at most Int64.max; `nil` when invalid.
    static func since(_ text: String) -> UInt64? {
        let bytes = Array(text.utf8)
        guard (1...20).contains(bytes.count) else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value <= UInt64(Int64.max) ? value : nil
    }

    /// Whether `text` is a valid `wait`: `^([0-9]+\.?[0-9]*|\.[0-9]+)$`, at most 32 characters.
    static func isWait(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count <= 32 else { return false }
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(isDigit) }) else { return false }
        return parts.contains { !$0.isEmpty }
    }
}
