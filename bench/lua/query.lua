-- wrk script: queries, one request each, answered by the server in full.
--   wrk ... -s bench/lua/query.lua http://127.0.0.1:PORT -- DB COLL X-MS-DATE AUTH MODE TENANTS SPAN
-- MODE single: SELECT * FROM c WHERE c.pk = @pk, for a random tenant q000..q<TENANTS-1>
--              (the tenant's items, with its partition key header);
-- MODE cross:  SELECT TOP 10 * FROM c WHERE c.n >= @lo ORDER BY c.n, lo random in [0, SPAN),
--              across every partition key (x-ms-documentdb-query-enablecrosspartition).
-- A query is signed like a create, over (post, docs, dbs/DB/colls/COLL, date).

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local head, mode, tenants, span

function init(args)
  local db, coll, date, auth = args[1], args[2], args[3], args[4]
  mode = args[5]
  tenants = tonumber(args[6] or "200")
  span = tonumber(args[7] or "10000")
  if mode ~= "single" and mode ~= "cross" then error("query.lua: MODE must be single or cross") end
  head = docs_post_head(db, coll, date, auth,
    "x-ms-documentdb-isquery: True\r\ncontent-type: application/query+json\r\n")
  math.randomseed(os.time() * 1000 + (tid or 0))
end

function request()
  local body, extra
  if mode == "single" then
    local pk = string.format("q%03d", math.random(tenants) - 1)
    body = '{"query":"SELECT * FROM c WHERE c.pk = @pk","parameters":[{"name":"@pk","value":"' ..
      pk .. '"}]}'
    extra = 'x-ms-documentdb-partitionkey: ["' .. pk .. '"]\r\n'
  else
    body = '{"query":"SELECT TOP 10 * FROM c WHERE c.n >= @lo ORDER BY c.n",' ..
      '"parameters":[{"name":"@lo","value":' .. (math.random(span) - 1) .. '}]}'
    extra = "x-ms-documentdb-query-enablecrosspartition: True\r\n"
  end
  return head .. extra .. "Content-Length: " .. #body .. "\r\n\r\n" .. body
end
