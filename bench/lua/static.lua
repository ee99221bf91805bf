-- wrk script for the nginx baseline: GET of the URL given to wrk. Like read.lua it renders the
-- request once and hands it out from request(), so wrk does the same per-request work for the
-- baseline as for Orrery's reads (the client shares the CPUs with the server under test).

local req

function init(args)
  req = wrk.format("GET", wrk.path)
end

function request()
  return req
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d duration_us=%d bytes=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d " ..
    "status_errors=%d connect_errors=%d read_errors=%d write_errors=%d timeouts=%d\n",
    summary.requests, summary.duration, summary.bytes, latency:percentile(50),
    latency:percentile(90), latency:percentile(99), latency.max,
    e.status, e.connect, e.read, e.write, e.timeout))
end
