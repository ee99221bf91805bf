-- wrk script: 1 KB creates with unique ids (and a distinct partition key per item).
--   wrk ... -s bench/lua/create.lua http://127.0.0.1:PORT -- DB COLL X-MS-DATE AUTH RUNID SIZE
-- A create is signed over (post, docs, dbs/DB/colls/COLL, date), which does not depend on the
-- item, so one signature serves every request for 15 minutes. Ids are RUNID-<thread>-<counter>.
-- Everything but the id is rendered once in init(), so that request() costs the load
-- generator (which shares the cores with the server) one string of the request's size.

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local counter = 0
local prefix, before_pk_header, before_body_id, before_pk, body_tail

function init(args)
  local db, coll, date, auth, runid = args[1], args[2], args[3], args[4], args[5]
  local size = tonumber(args[6] or "1024")
  -- run_wrk exports BENCH_WRK_PHASE (warmup|measure) so the warm-up and the measured run
  -- never create the same id (a repeat would be a 409 Conflict).
  prefix = runid .. (os.getenv("BENCH_WRK_PHASE") or "") .. "-" .. (tid or 0) .. "-"
  -- The id has a fixed width (counter zero-padded to 9 digits), so the padding that brings
  -- the body to `size` bytes, and with it the Content-Length, are computed once.
  local sample = prefix .. string.format("%09d", 0)
  local fixed = string.len('{"id":"' .. sample .. '","pk":"' .. sample .. '","n":0,"payload":"' .. '"}')
  local pad = string.rep("x", math.max(0, size - fixed))
  body_tail = '","n":0,"payload":"' .. pad .. '"}'
  local body_bytes = fixed + string.len(pad)
  before_pk_header = docs_post_head(db, coll, date, auth, "content-type: application/json\r\n") ..
    'x-ms-documentdb-partitionkey: ["'
  before_body_id = '"]\r\nContent-Length: ' .. body_bytes .. '\r\n\r\n{"id":"'
  before_pk = '","pk":"'
end

function request()
  counter = counter + 1
  local id = prefix .. string.format("%09d", counter)
  return before_pk_header .. id .. before_body_id .. id .. before_pk .. id .. body_tail
end
