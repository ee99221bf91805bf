-- wrk script for the nginx baseline: GET of the URL given to wrk. Like read.lua it renders the
-- request once and hands it out from request(), so wrk does the same per-request work for the
-- baseline as for Orrery's reads (the client shares the CPUs with the server under test).

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local req

function init(args)
  req = wrk.format("GET", wrk.path)
end

function request()
  return req
end
