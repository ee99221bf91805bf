-- wrk script: full-container scans, one cross-partition query per request.
--   wrk ... -s bench/lua/scan.lua http://127.0.0.1:PORT -- DB COLL X-MS-DATE AUTH [QUERY]
-- QUERY defaults to SELECT * FROM c WHERE CONTAINS(c.payload, "#"): no index serves the
-- filter and no item matches, so the server reads every item of every partition to
-- answer each request (its longest kind of request that returns little). A query is
-- signed like a create, over (post, docs, dbs/DB/colls/COLL, date).

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local req

function init(args)
  local db, coll, date, auth = args[1], args[2], args[3], args[4]
  local query = args[5] or 'SELECT * FROM c WHERE CONTAINS(c.payload, \\"#\\")'
  local body = '{"query":"' .. query .. '","parameters":[]}'
  req = docs_post_head(db, coll, date, auth,
    "x-ms-documentdb-isquery: True\r\ncontent-type: application/query+json\r\n" ..
    "x-ms-documentdb-query-enablecrosspartition: True\r\nx-ms-max-item-count: 1000\r\n") ..
    "Content-Length: " .. #body .. "\r\n\r\n" .. body
end

function request()
  return req
end
