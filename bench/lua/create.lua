-- wrk script: 1 KB creates with unique ids (and a distinct partition key per item).
--   wrk ... -s bench/lua/create.lua http://127.0.0.1:PORT -- DB COLL X-MS-DATE AUTH RUNID SIZE
-- A create is signed over (post, docs, dbs/DB/colls/COLL, date), which does not depend on the
-- item, so one signature serves every request for 15 minutes. Ids are RUNID-<thread>-<counter>.

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local counter = 0
local head, pad, prefix

function init(args)
  local db, coll, date, auth, runid = args[1], args[2], args[3], args[4], args[5]
  local size = tonumber(args[6] or "1024")
  -- run_wrk exports BENCH_WRK_PHASE (warmup|measure) so the warm-up and the measured run
  -- never create the same id (a repeat would be a 409 Conflict).
  prefix = runid .. (os.getenv("BENCH_WRK_PHASE") or "") .. "-" .. (tid or 0) .. "-"
  head = docs_post_head(db, coll, date, auth, "content-type: application/json\r\n")
  -- The id has a fixed width (counter zero-padded to 9 digits), so the padding that brings
  -- the body to `size` bytes is computed once.
  local sample = prefix .. string.format("%09d", 0)
  local fixed = string.len('{"id":"' .. sample .. '","pk":"' .. sample .. '","n":0,"payload":"' .. '"}')
  pad = string.rep("x", math.max(0, size - fixed))
end

function request()
  counter = counter + 1
  local id = prefix .. string.format("%09d", counter)
  local body = '{"id":"' .. id .. '","pk":"' .. id .. '","n":0,"payload":"' .. pad .. '"}'
  return head ..
    'x-ms-documentdb-partitionkey: ["' .. id .. '"]\r\n' ..
    "Content-Length: " .. string.len(body) .. "\r\n\r\n" .. body
end
