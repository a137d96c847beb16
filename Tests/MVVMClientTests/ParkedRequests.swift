import OpenAPIRuntime
import TestSupport

@testable import MVVMClient

extension MVVMClient {
    /// Returns once at least `count` requests are parked on the server (`mvvm_parked_requests`
    /// in `GET /metrics`, in either mode): a long-poll sent before a change then waits for it,
    /// instead of being answered by a later read.
    func waitUntilParked(_ count: Int = 1) async throws {
        let parked = try await eventually(within: .seconds(10), every: .milliseconds(5)) {
            guard case .ok(let ok) = try await api.getMetrics(.init()) else { return false }
            let text = try await String(collecting: try ok.body.textPlainVersion_0_0_4, upTo: 1 << 20)
            return MetricsText.value(of: "mvvm_parked_requests", in: text) ?? 0 >= count
        }
        guard parked else { throw TestHTTPClient.Failure(description: "\(count) requests were not parked") }
    }
}
