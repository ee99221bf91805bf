-- Shared by the wrk scripts. Load it first, with:
--   dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
-- It numbers the threads (each thread's `tid`, from 1), builds the head of a signed
-- POST to a container's docs, and prints the one BENCH_RESULT line the drivers parse.

local nthreads = 0
function setup(thread)
  nthreads = nthreads + 1
  thread:set("tid", nthreads)
end

-- A POST to dbs/DB/colls/COLL/docs is signed over (post, docs, that link, date), which
-- does not depend on the body, so one signature serves every request for 15 minutes.
-- `extra` holds further header lines, each ending in \r\n.
function docs_post_head(db, coll, date, auth, extra)
  return "POST /dbs/" .. db .. "/colls/" .. coll .. "/docs HTTP/1.1\r\n" ..
    "Host: " .. wrk.headers["Host"] .. "\r\n" ..
    "x-ms-date: " .. date .. "\r\n" ..
    "x-ms-version: 2020-07-15\r\n" ..
    "authorization: " .. auth .. "\r\n" ..
    (extra or "") ..
    "accept: application/json\r\n"
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
