-- wrk script: 1 KB upserts that replace preloaded items, chosen uniformly at random.
--   wrk ... -s bench/lua/upsert.lua http://127.0.0.1:PORT -- DB COLL X-MS-DATE AUTH ITEMS SIZE
-- Items are the point-read set of bench/lib/bench_items.mjs (id r%06d, partition key p%06d).
-- An upsert is signed like a create, over (post, docs, dbs/DB/colls/COLL, date).

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local head, pad, items, size

function init(args)
  local db, coll, date, auth = args[1], args[2], args[3], args[4]
  items = tonumber(args[5] or "10000")
  size = tonumber(args[6] or "1024")
  head = docs_post_head(db, coll, date, auth,
    "x-ms-documentdb-is-upsert: True\r\ncontent-type: application/json\r\n")
  pad = string.rep("x", size)
  math.randomseed(os.time() * 1000 + (tid or 0))
end

function request()
  local i = math.random(items) - 1
  local id = string.format("r%06d", i)
  local pk = string.format("p%06d", i)
  local prefix = '{"id":"' .. id .. '","pk":"' .. pk .. '","n":' .. i .. ',"payload":"'
  local body = prefix .. string.sub(pad, 1, math.max(0, size - #prefix - 2)) .. '"}'
  return head ..
    'x-ms-documentdb-partitionkey: ["' .. pk .. '"]\r\n' ..
    "Content-Length: " .. #body .. "\r\n\r\n" .. body
end
