-- wrk script of run.sh replicas: ls with the session cookie of WRK_COOKIE and the file manager's anti-CSRF header,
-- and one summary line for the harness: "wrk-ls requests failed p50 p95 p99" (latencies in microseconds).
wrk.headers["Cookie"] = os.getenv("WRK_COOKIE")
wrk.headers["X-Requested-With"] = "XmlHttpRequest"

done = function(summary, latency, requests)
	local errors = summary.errors
	local failed = errors.connect + errors.read + errors.write + errors.status + errors.timeout
	io.write(string.format("wrk-ls %d %d %d %d %d\n", summary.requests, failed, latency:percentile(50),
		latency:percentile(95), latency:percentile(99)))
end
