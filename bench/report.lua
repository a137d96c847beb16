-- report.lua: wrk's summary as one line that bench/run.sh reads:
--   RESULT requests=N duration_s=S rps=R p50_ms=… p99_ms=… max_ms=… errors…
-- Use it alone (`wrk -s bench/report.lua …`: requests stay wrk's static fast path) or load it
-- from another script with dofile and call bench_report(summary, latency, extra).

function bench_report(summary, latency, extra)
   local e = summary.errors
   local seconds = summary.duration / 1e6
   io.write(string.format(
      "RESULT requests=%d duration_s=%.3f rps=%.1f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f " ..
      "connect_errors=%d read_errors=%d write_errors=%d status_errors=%d timeouts=%d%s\n",
      summary.requests, seconds, summary.requests / seconds,
      latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
      e.connect, e.read, e.write, e.status, e.timeout, extra or ""))
end

function done(summary, latency, requests)
   bench_report(summary, latency, "")
end
